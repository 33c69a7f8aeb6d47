package io.metaroce.protocol;

/** One named value of an enum. number: a quantity the value stands for (RNR timer ns, MTU bytes), or -1. */
public record EnumValueDef(long value, String id, String label, long number) {}
