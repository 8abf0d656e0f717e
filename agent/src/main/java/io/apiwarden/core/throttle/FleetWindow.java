package io.apiwarden.core.throttle;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The rate-limit window shared by the JVMs of a fleet: a JVM whose call was refused tells the
 * others, and each closes its own {@link ThrottleGate} for what is left of the window. A store that
 * cannot be reached costs nothing but this sharing: every JVM keeps its own gate.
 */
public interface FleetWindow extends AutoCloseable {
    /** No fleet: the gate of this JVM only. */
    FleetWindow NONE = new FleetWindow() {
        @Override
        public void announce(Duration window) {}

        @Override
        public void listen(Consumer<Duration> heard) {}

        @Override
        public String describe() {
            return "this JVM only";
        }

        @Override
        public void close() {}
    };

    /** Tells the other JVMs the limit holds for {@code window} from now. Never blocks, never throws. */
    void announce(Duration window);

    /**
     * From now on, {@code heard} gets what is left of each window another JVM announces, and of the
     * one in force when listening starts. Called on the fleet's own thread.
     */
    void listen(Consumer<Duration> heard);

    String describe();

    @Override
    void close();
}
