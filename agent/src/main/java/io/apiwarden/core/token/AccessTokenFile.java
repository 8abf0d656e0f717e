package io.apiwarden.core.token;

import io.apiwarden.core.log.KnownSecrets;
import io.apiwarden.core.secret.ReloadableSecret;
import java.nio.charset.StandardCharsets;

/**
 * The access token of {@code apiwarden.access-token-file}, followed as the file changes: a sidecar or a mounted
 * Secret that writes a new token into the file gives the agent that token, with no restart.
 *
 * <p>Only new content is news: the file's token is handed over once, when it changed, and then replaces whatever
 * token the {@link TokenManager} holds at that moment, the first one or one a refresh brought. Writing the file is
 * a deliberate act, later than any refresh made before it; a file that did not change never displaces a refreshed
 * token. A new token is redacted ({@link KnownSecrets}) before it is first sent.
 */
public final class AccessTokenFile {
    private final ReloadableSecret<String> file;
    /** The file's token last handed over (or the one the manager started with); written under {@code this}. */
    private volatile String handedOver;

    /**
     * @param file the file, followed
     * @param startedWith the token the manager was given at start, read from the same file a moment before: a
     *     different token in the file is news
     */
    public AccessTokenFile(ReloadableSecret<String> file, String startedWith) {
        this.file = file;
        String now = file.get();
        // The file's own instance when it is the same token: each call's comparison then ends at the identity check.
        this.handedOver = now != null && now.equals(startedWith) ? now : startedWith;
    }

    /**
     * The file's token when it is new since the last one handed over, else null. Looks at the file only when the
     * check interval has passed since the last look, or at once when {@code lookNow} (the API refused the token).
     */
    String news(boolean lookNow) {
        if (lookNow) {
            file.checkNow();
        }
        String token = file.get();
        if (token == null || token.equals(handedOver)) {
            return null;
        }
        synchronized (this) {
            boolean same = token.equals(handedOver);
            handedOver = token;
            if (same) {
                return null;
            }
        }
        KnownSecrets.remember(token);
        return token;
    }

    /** An access token as the file holds it: trimmed; a token the agent would never send is a bad file. */
    public static String tokenText(byte[] content) {
        String token = new String(content, StandardCharsets.UTF_8).trim();
        String flaw = TokenText.accessTokenFlaw(token);
        if (flaw != null) {
            // The flaw names what is wrong, never the content.
            throw new IllegalArgumentException(
                    flaw + ": put the bare access token in it, as the token service issued it");
        }
        return token;
    }

    /** Never shows the token. */
    @Override
    public String toString() {
        return "AccessTokenFile{" + file.property() + "}";
    }
}
