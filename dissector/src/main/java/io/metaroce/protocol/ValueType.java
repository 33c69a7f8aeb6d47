package io.metaroce.protocol;

/** How a field's value is represented and printed. */
public enum ValueType { UINT, BOOL, IPV4, IPV6, ETHER, BYTES, STRING }
