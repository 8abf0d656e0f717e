package io.apiwarden.core.log;

/**
 * The secrets the agent holds (configured and received tokens, the client secret), so that the
 * last line of defence can cut them out of any text that leaves the agent: every log line and
 * every span attribute taken from a response. Code never means to write a secret; this catches
 * the text that came from elsewhere and quoted one (a token endpoint that echoes the refresh
 * token in its error description, say).
 */
public final class KnownSecrets {
    /** What stands in for a secret: the same mark as in {@link ServerText}. */
    public static final String MARK = ServerText.REDACTED;
    /**
     * Secrets remembered at once: the configured ones and a few generations of rotated tokens.
     * Older ones are dead at their issuer, and the list must stay cheap to scan.
     */
    static final int REMEMBERED = 16;
    /**
     * Shorter values are not cut out: real tokens and secrets are far longer, and cutting a
     * short word out of every line would garble the log.
     */
    static final int SHORTEST = 8;

    private static volatile String[] secrets = new String[0];

    private KnownSecrets() {}

    /** Secrets remembered for the JVM's life: the configured ones, which may stay valid for ever. */
    private static volatile String[] pinned = new String[0];

    /** Remembers a configured secret for the JVM's life (null and short values are ignored). */
    public static synchronized void pin(String secret) {
        if (secret == null
                || secret.length() < SHORTEST
                || java.util.Arrays.asList(pinned).contains(secret)) {
            return;
        }
        String[] next = java.util.Arrays.copyOf(pinned, pinned.length + 1);
        next[pinned.length] = secret;
        pinned = next;
    }

    /** Remembers {@code secret} (null and short values are ignored); the oldest is forgotten beyond {@link #REMEMBERED}. */
    public static synchronized void remember(String secret) {
        if (secret == null || secret.length() < SHORTEST) {
            return;
        }
        String[] now = secrets;
        for (String s : now) {
            if (s.equals(secret)) {
                return;
            }
        }
        int keep = Math.min(now.length, REMEMBERED - 1);
        String[] next = new String[keep + 1];
        next[0] = secret;
        System.arraycopy(now, 0, next, 1, keep);
        secrets = next;
    }

    /** The secrets remembered now; the array is never changed after it is returned. */
    static String[] all() {
        String[] p = pinned;
        String[] r = secrets;
        if (p.length == 0) {
            return r;
        }
        String[] both = java.util.Arrays.copyOf(p, p.length + r.length);
        System.arraycopy(r, 0, both, p.length, r.length);
        return both;
    }

    /** {@code text} with every remembered secret replaced by {@link #MARK}; the same instance when there is none. */
    public static String scrub(String text) {
        if (text == null) {
            return null;
        }
        String result = text;
        for (String secret : pinned) {
            if (result.contains(secret)) {
                result = result.replace(secret, MARK);
            }
        }
        for (String secret : secrets) {
            if (result.contains(secret)) {
                result = result.replace(secret, MARK);
            }
        }
        return result;
    }
}
