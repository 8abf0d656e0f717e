package io.apiwarden.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A token handed to a child JVM through an owner-only file, so that it appears neither on a command
 * line (where {@code ps} and JMH's "VM options" line would show it) nor in the benchmark's output.
 */
final class SecretFile {
    private SecretFile() {}

    /** A new owner-only file holding {@code secret}, deleted when this JVM exits. */
    static Path of(String secret) {
        try {
            Path file = Files.createTempFile(
                    "apiwarden-bench-",
                    ".token",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            file.toFile().deleteOnExit();
            Files.write(file, secret.getBytes(StandardCharsets.US_ASCII));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a token file for a benchmark JVM", e);
        }
    }

    /** The secret in {@code file}, or null when {@code file} is null. */
    static String read(String file) {
        if (file == null) {
            return null;
        }
        try {
            return new String(Files.readAllBytes(Path.of(file)), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the token file " + file, e);
        }
    }
}
