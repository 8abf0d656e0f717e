package io.apiwarden.core.secret;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Reads a token or secret from the file a {@code *-file} property names, at start-up, without
 * ever hanging it or exhausting its memory: only a regular file is opened (a FIFO with no writer
 * would block the open forever, {@code /dev/zero} never ends), and at most
 * {@link #MAX_BYTES} of it is read. Public for the settings of optional parts (the Redis store's password and
 * encryption key), which are read the same way, and for the files the token store keeps beside
 * the refresh-token file ({@link #readOwn}), which are read by the same rule and never through a link.
 */
public final class SecretFile {
    /**
     * A token file holds one token: JWTs with many claims run to a few KiB, and an access token
     * above 16 KiB could not go into a header anyway. Anything larger is the wrong file.
     */
    static final int MAX_BYTES = 32 * 1024;

    private static final LinkOption[] FOLLOW = {};
    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    /** The file is there but cannot hold a token; the message says why and what to do. */
    public static final class Unusable extends IOException {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message);
        }
    }

    private SecretFile() {}

    /** The file's content, trimmed. Symbolic links are followed (mounted secrets are links). */
    public static String read(Path file) throws IOException {
        return read(file, FOLLOW, MAX_BYTES, "a token file", "point it at a file that holds only the token");
    }

    /**
     * The content of a file of settings (the agent's configuration file), by the same rules as a token's: a
     * regular file, links followed, at most {@code maxBytes} read, never a pipe or a device.
     */
    public static String readSettings(Path file, int maxBytes) throws IOException {
        return read(file, FOLLOW, maxBytes, "a settings file", "point it at the properties file");
    }

    /**
     * The content of a file the agent keeps for itself, trimmed: as {@link #read}, but a symbolic
     * link is refused too (checked and opened with {@code NOFOLLOW_LINKS}). Nobody has a reason to
     * put a link where the agent keeps its own files, and reading through one would take whatever
     * it points at, or send the token found there.
     */
    public static String readOwn(Path file) throws IOException {
        return read(file, NO_FOLLOW, MAX_BYTES, "a token file", "the agent writes a new one in its place");
    }

    /**
     * The bytes of a key or key store file (a PEM key, a PKCS#12 store), by the rules of {@link #read}: links
     * followed, a regular file only, at most {@link #MAX_BYTES}. Not trimmed: a key store is binary.
     */
    public static byte[] readBytes(Path file) throws IOException {
        ByteBuffer content =
                readBuffer(file, FOLLOW, MAX_BYTES, "a key file", "point it at the key or key store file itself");
        return Arrays.copyOf(content.array(), content.position());
    }

    private static String read(Path file, LinkOption[] links, int maxBytes, String kindOfFile, String whatToDo)
            throws IOException {
        ByteBuffer content = readBuffer(file, links, maxBytes, kindOfFile, whatToDo);
        return new String(content.array(), 0, content.position(), StandardCharsets.UTF_8).trim();
    }

    private static ByteBuffer readBuffer(
            Path file, LinkOption[] links, int maxBytes, String kindOfFile, String whatToDo) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, links);
        if (!attributes.isRegularFile()) {
            String kind = attributes.isDirectory()
                    ? "a folder"
                    : attributes.isSymbolicLink()
                            ? "a symbolic link"
                            : "not a regular file (a pipe, a socket or a device)";
            throw new Unusable("is " + kind + ": " + whatToDo);
        }
        if (attributes.size() > maxBytes) {
            throw new Unusable("has " + attributes.size() + " bytes, more than " + kindOfFile + " can hold (" + maxBytes
                    + "): " + whatToDo);
        }
        // The size may change after the look, so the read itself is bounded too.
        ByteBuffer content = ByteBuffer.allocate(maxBytes + 1);
        Set<OpenOption> options = links.length == 0
                ? Set.of(StandardOpenOption.READ)
                : Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        try (FileChannel channel = FileChannel.open(file, options)) {
            while (content.hasRemaining() && channel.read(content) >= 0) {
                // reads until the end of the file or the bound
            }
        }
        if (!content.hasRemaining()) {
            throw new Unusable("grew beyond " + maxBytes + " bytes while it was read: " + whatToDo);
        }
        return content;
    }

    /**
     * Who else may read or replace {@code file}, as a phrase that names it (readable by its group
     * or every user, owned by another user, in a folder every user may write), or null when
     * nobody but this process's user may, or the file system has no owners and modes. Links are
     * followed: what matters is the file the token is in.
     */
    public static String exposure(Path file) {
        try {
            PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class);
            Set<PosixFilePermission> modes = attributes.permissions();
            List<String> problems = new ArrayList<>(3);
            if (modes.contains(PosixFilePermission.OTHERS_READ) || modes.contains(PosixFilePermission.GROUP_READ)) {
                problems.add("is readable by "
                        + (modes.contains(PosixFilePermission.OTHERS_READ) ? "every user" : "its group")
                        + " (chmod 600 it)");
            }
            if (!ownedByThisProcess(file)) {
                problems.add("is owned by " + attributes.owner().getName() + ", not by the user this process runs as");
            }
            Path folder = file.toAbsolutePath().getParent();
            if (folder != null
                    && Files.readAttributes(folder, PosixFileAttributes.class)
                            .permissions()
                            .contains(PosixFilePermission.OTHERS_WRITE)) {
                problems.add(
                        "is in a folder every user may write, where anyone can replace it (chmod o-w " + folder + ")");
            }
            return problems.isEmpty() ? null : file + " " + String.join(", and ", problems);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether this process's user owns {@code file}: on Linux {@code /proc/self} belongs to the
     * process's user; elsewhere its name is compared, as {@code user.name} gives it.
     */
    private static boolean ownedByThisProcess(Path file) throws IOException {
        Path self = Paths.get("/proc/self");
        if (Files.exists(self)) {
            return Files.getAttribute(file, "unix:uid").equals(Files.getAttribute(self, "unix:uid"));
        }
        return Files.getOwner(file).getName().equals(System.getProperty("user.name"));
    }
}
