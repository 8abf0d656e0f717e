package io.apiwarden.core.token;

import io.apiwarden.core.token.store.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Writes a rotated refresh token back to its file so a restart does not log the app out: one
 * token and a newline, replaced atomically with owner-only permissions ({@link AtomicFile}).
 * When the path is a symbolic link (a secret kept elsewhere), the file it points at gets the
 * new token and the link stays.
 *
 * <p>A write comes in two parts so that the token is on disk soon after it arrives: {@link #prepare()}
 * does everything that does not need the token before the token request goes out;
 * {@link Replacement#commit} is left with write, force, rename and the folder's force.
 */
public final class RefreshTokenFile {
    private final AtomicFile file;

    public RefreshTokenFile(Path file) {
        this.file = AtomicFile.throughLinks(file);
    }

    public Path path() {
        return file.path();
    }

    /** Replaces the file's content with {@code refreshToken} atomically. */
    public void write(String refreshToken) throws IOException {
        file.replace(line(refreshToken));
    }

    /** Starts a write; see {@link AtomicFile#prepare()}. */
    public Replacement prepare() throws IOException {
        return new Replacement(file.prepare());
    }

    /** The file's content for {@code refreshToken}. */
    private static byte[] line(String refreshToken) {
        return (refreshToken + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A write in progress: commit it once, or close it to drop its temporary file. */
    public static final class Replacement implements AutoCloseable {
        private final AtomicFile.Replacement replacement;

        private Replacement(AtomicFile.Replacement replacement) {
            this.replacement = replacement;
        }

        /** Writes {@code refreshToken} and a newline, forces it to disk and renames it over the file. */
        public void commit(String refreshToken) throws IOException {
            replacement.commit(line(refreshToken));
        }

        /** Closes what is open and deletes the temporary file unless it was committed. Never throws. */
        @Override
        public void close() {
            replacement.close();
        }
    }
}
