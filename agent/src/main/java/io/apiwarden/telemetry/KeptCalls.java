package io.apiwarden.telemetry;

/**
 * The calls kept while the SDK started (see {@link StartingTelemetry}), as the SDK's exit sees them: an exit that
 * comes between the SDK's start and the end of their replay waits for it, a bounded time, before the last flush.
 */
interface KeptCalls {
    /** Nothing kept: for an SDK started without them. */
    KeptCalls NONE = new KeptCalls() {
        @Override
        public void flushedAtExit() {}

        @Override
        public void awaitReplay() {}
    };

    /** The SDK is up and will flush at exit: what is kept is no longer dropped at exit, but awaited. */
    void flushedAtExit();

    /** At exit, before the SDK's last flush: waits for the kept calls to be replayed, a bounded time. */
    void awaitReplay();
}
