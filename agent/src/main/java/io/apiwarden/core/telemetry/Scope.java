package io.apiwarden.core.telemetry;

/** A span made current for a while; closing ends that, and never throws. */
public interface Scope extends AutoCloseable {
    Scope NONE = () -> {};

    @Override
    void close();
}
