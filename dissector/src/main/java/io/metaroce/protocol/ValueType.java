package io.metaroce.protocol;

/** How a field's value is represented and printed. TIME: signed nanoseconds, printed as seconds (frame.time_relative). */
public enum ValueType { UINT, BOOL, IPV4, IPV6, ETHER, BYTES, STRING, TIME }
