package io.apiwarden.core.engine;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.classify.Verdict;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;

/** What an {@link Exchange} asks the driver while one attempt's response arrives. */
public interface Judge {

    /**
     * Reads up to {@code limit} bytes of a response body, leaving the body whole for the app; throws
     * {@link BodyPeek.TooSlow} when they were not in within the bound on holding an error body.
     */
    interface BodyPrefix {
        byte[] read(int limit) throws IOException;
    }

    /**
     * The verdict on a response from its status and headers and, only when those leave it open, a
     * bounded prefix of its body; a prefix that cannot be read leaves the verdict to the status.
     */
    Verdict classify(int status, Function<String, List<String>> headers, BodyPrefix body);

    /**
     * Decides what the call does about a classified response, counting the step (a refresh, a
     * wait). The exchange tells what it saw of the attempt on the wire; it never decides itself.
     */
    Decision decide(Verdict verdict, String retryAfter, OnTheWire wire);

    /** {@link #decide(Verdict, String, OnTheWire)} for an attempt that went out as the driver prepared it. */
    default Decision decide(Verdict verdict, String retryAfter) {
        return decide(verdict, retryAfter, OnTheWire.AS_PREPARED);
    }
}
