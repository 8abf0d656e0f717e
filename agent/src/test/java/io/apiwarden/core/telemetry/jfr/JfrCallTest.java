package io.apiwarden.core.telemetry.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.Scope;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JfrCallTest {
    @Test
    void theTokenSchemeReachesTheSpansBeneath() {
        // Once a JVM has had a recording, every call is wrapped: a DPoP call's span must still say DPoP.
        List<String> schemes = new ArrayList<>();
        CallObserver spans = new CallObserver() {
            @Override
            public Scope current() {
                return Scope.NONE;
            }

            @Override
            public AttemptObserver attempt(boolean expectContinue) {
                return AttemptObserver.NOOP;
            }

            @Override
            public void tokenScheme(String scheme) {
                schemes.add(scheme);
            }

            @Override
            public void end(int status, Verdict verdict, Throwable failure) {}
        };

        new JfrCall(spans, "default", "GET", "api.example.com").tokenScheme("DPoP");

        assertThat(schemes).containsExactly("DPoP");
    }
}
