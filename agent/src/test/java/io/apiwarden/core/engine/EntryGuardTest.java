package io.apiwarden.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What every adapter's entry does with a request: manage it, pass it on, or pass it on despite a failure. */
class EntryGuardTest {

    @Test
    void aRequestInScopeGetsItsManagedCall() {
        Object call = new Object();

        assertThat(EntryGuard.open("test-entry", "a test call", () -> call)).isSameAs(call);
    }

    @Test
    void aRequestOutsideTheApiGoesOnUntouched() {
        assertThat(EntryGuard.<Object>open("test-entry", "a test call", () -> null))
                .isNull();
    }

    @Test
    void theAgentsOwnFailureLetsTheRequestGoOnAsWithoutTheAgent() {
        assertThat(EntryGuard.<Object>open("test-entry", "a test call", () -> {
                    throw new IllegalStateException("the agent's own bug");
                }))
                .isNull();
    }

    @Test
    void anErrorIsNotTheAgentsToHide() {
        assertThatThrownBy(() -> EntryGuard.open("test-entry", "a test call", () -> {
                    throw new OutOfMemoryError("simulated");
                }))
                .isInstanceOf(OutOfMemoryError.class);
    }
}
