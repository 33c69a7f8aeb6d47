package io.metaroce.protocol;

/** Number base used when a field is printed (JSON always carries the number). */
public enum Display { DEC, HEX }
