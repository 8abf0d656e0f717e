package io.apiwarden.core.telemetry;

/** A span made current for a while; closing ends that, and never throws. */
public interface Scope extends AutoCloseable {
    Scope NONE = new None();

    @Override
    void close();

    /** No span: a class, not a lambda, which the first call would spin (docs/benchmarks.md). */
    final class None implements Scope {
        private None() {}

        @Override
        public void close() {}
    }
}
