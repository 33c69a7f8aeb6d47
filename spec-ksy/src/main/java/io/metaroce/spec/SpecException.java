package io.metaroce.spec;

/** The spec file is inconsistent (unknown header, fields that do not fill whole bytes, ...). */
public final class SpecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SpecException(String message) { super(message); }
}
