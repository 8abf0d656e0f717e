package io.apiwarden.core.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a token or secret from the file a {@code *-file} property names, at start-up, without
 * ever hanging it or exhausting its memory: only a regular file is opened (a FIFO with no writer
 * would block the open forever, {@code /dev/zero} never ends), and at most
 * {@link #MAX_BYTES} of it is read. Public for the settings of optional parts (the Redis store's password and
 * encryption key), which are read the same way.
 */
public final class SecretFile {
    /**
     * A token file holds one token: JWTs with many claims run to a few KiB, and an access token
     * above 16 KiB could not go into a header anyway. Anything larger is the wrong file.
     */
    static final int MAX_BYTES = 32 * 1024;

    /** The file is there but cannot hold a token; the message says why and what to do. */
    public static final class Unusable extends IOException {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message);
        }
    }

    private SecretFile() {
    }

    /** The file's content, trimmed. Symbolic links are followed (mounted secrets are links). */
    public static String read(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            String kind = attributes.isDirectory() ? "a folder" : "not a regular file (a pipe, a socket or a device)";
            throw new Unusable("is " + kind + ": point it at a file that holds only the token");
        }
        if (attributes.size() > MAX_BYTES) {
            throw new Unusable("has " + attributes.size() + " bytes, more than a token file can hold (" + MAX_BYTES
                    + "): point it at the file that holds only the token");
        }
        // The size may change after the look, so the read itself is bounded too.
        ByteBuffer content = ByteBuffer.allocate(MAX_BYTES + 1);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (content.hasRemaining() && channel.read(content) >= 0) {
                // reads until the end of the file or the bound
            }
        }
        if (!content.hasRemaining()) {
            throw new Unusable("grew beyond " + MAX_BYTES + " bytes while it was read: point it at the file that holds only the token");
        }
        return new String(content.array(), 0, content.position(), StandardCharsets.UTF_8).trim();
    }
}
