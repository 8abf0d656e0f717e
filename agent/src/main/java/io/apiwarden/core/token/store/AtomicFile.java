package io.apiwarden.core.token.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Replaces a file's content in one step: an owner-only temporary file in the same folder, forced
 * to disk, renamed over the old file, then the folder forced so that the rename itself survives a
 * power cut. A crash leaves the old content or the new, never half of either.
 *
 * <p>A write comes in two parts so that new content is on disk soon after it is known:
 * {@link #prepare()} does everything that does not need the content (creating and opening the
 * temporary file and the folder, loading the code of the first write and rename);
 * {@link Replacement#commit} is left with write, force, rename and the folder's force.
 *
 * <p>A symbolic link at the path is replaced by the file, never written through, unless the file
 * is made with {@link #throughLinks}: then the link stays and the file it points at is replaced.
 */
public final class AtomicFile {
    /**
     * Temporary files are {@code .<file>.<pid>-<random>.tmp}: the pid tells whose a leftover is. Not
     * {@code Files.createTempFile}, whose first call seeds a {@code SecureRandom} (40-80 ms measured);
     * {@code CREATE_NEW} refuses a name that exists, link or not.
     */
    private static final String TEMPORARY_SUFFIX = ".tmp";

    private final Path file;
    private final boolean followsLinks;
    private volatile boolean swept;

    /** The file at {@code file}; a symbolic link there is replaced by the file. */
    public AtomicFile(Path file) {
        this(file, false);
    }

    private AtomicFile(Path file, boolean followsLinks) {
        this.file = file.toAbsolutePath();
        this.followsLinks = followsLinks;
    }

    /**
     * The file a symbolic link at {@code file} points at, looked up at each write (a link may be
     * pointed elsewhere meanwhile, as Kubernetes does with a mounted secret): for the refresh-token
     * file, which users may keep elsewhere and link to, and whose rotated token must land where
     * they keep it, not in a new file beside the link.
     */
    public static AtomicFile throughLinks(Path file) {
        return new AtomicFile(file, true);
    }

    public Path path() {
        return file;
    }

    /** Replaces the file's content with {@code content} atomically. */
    public void replace(byte[] content) throws IOException {
        try (Replacement replacement = prepare()) {
            replacement.commit(content);
        }
    }

    /**
     * Creates the temporary file and opens it and the folder. The first call of a JVM also deletes
     * the temporary files of processes that were killed during a write.
     */
    public Replacement prepare() throws IOException {
        Path target = followsLinks && Files.isSymbolicLink(file) ? file.toRealPath() : file;
        String temporaryPrefix = "." + target.getFileName() + ".";
        if (!swept) {
            swept = true;
            deleteLeftovers(target, temporaryPrefix);
        }
        return new Replacement(target, temporaryPrefix);
    }

    /** A write in progress: commit it once, or close it to drop its temporary file. */
    public static final class Replacement implements AutoCloseable {
        private final Path file;
        private final Path temporary;
        private final FileChannel channel;
        /** Null where the file system does not open folders (Windows). */
        private final FileChannel folder;

        private boolean committed;

        private Replacement(Path file, String temporaryPrefix) throws IOException {
            this.file = file;
            Path created = null;
            FileChannel opened = null;
            for (int attempt = 1; opened == null; attempt++) {
                created = file.resolveSibling(
                        temporaryPrefix + ProcessHandle.current().pid() + "-"
                                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1) + TEMPORARY_SUFFIX);
                try {
                    opened = FileChannel.open(
                            created, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), ownerOnly());
                } catch (FileAlreadyExistsException e) {
                    if (attempt == 3) {
                        throw e;
                    }
                }
            }
            this.temporary = created;
            this.channel = opened;
            this.folder = openFolder(file.getParent());
            try {
                // An empty write and a rename of the file onto itself change nothing, but the first write and
                // rename of a JVM load and link their code (~1-10 ms measured) while the token would wait.
                channel.write(ByteBuffer.allocate(0));
                move(temporary, temporary);
            } catch (IOException e) {
                // A warm-up only: the commit meets the same failure, if it is one, and reports it.
            }
        }

        /** Writes {@code content}, forces it to disk and renames it over the file. */
        public void commit(byte[] content) throws IOException {
            if (committed || !channel.isOpen()) {
                throw new IllegalStateException("a replacement is committed once, and not after close()");
            }
            ByteBuffer bytes = ByteBuffer.wrap(content);
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
            channel.close();
            move(temporary, file);
            committed = true;
            if (folder != null) {
                try {
                    // The rename lives in the folder: without this a power cut could still undo it.
                    folder.force(true);
                } catch (IOException e) {
                    // Some file systems refuse to force a folder; the rename is done all the same.
                }
            }
        }

        /** Closes what is open and deletes the temporary file unless it was committed. Never throws. */
        @Override
        public void close() {
            closeQuietly(channel);
            closeQuietly(folder);
            if (!committed) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException e) {
                    // Left for the sweep of the next JVM.
                }
            }
        }
    }

    /**
     * Deletes temporary files whose process no longer runs: a kill between {@link #prepare()} and the
     * rename leaves one behind. Processes that share the file are expected to share the machine too.
     */
    private static void deleteLeftovers(Path file, String temporaryPrefix) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(file.getParent())) {
            for (Path leftover : files) {
                String name = leftover.getFileName().toString();
                if (!name.startsWith(temporaryPrefix)
                        || !name.endsWith(TEMPORARY_SUFFIX)
                        || name.length() <= temporaryPrefix.length() + TEMPORARY_SUFFIX.length()) {
                    continue;
                }
                String owner = name.substring(temporaryPrefix.length(), name.length() - TEMPORARY_SUFFIX.length());
                int dash = owner.indexOf('-');
                if (dash > 0 && isGone(owner.substring(0, dash))) {
                    Files.deleteIfExists(leftover);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Tidying only: a write does not depend on it.
        }
    }

    private static boolean isGone(String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(p -> !p.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static FileChannel openFolder(Path folder) {
        try {
            return FileChannel.open(folder, StandardOpenOption.READ);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // Nothing was written through it that is still needed.
            }
        }
    }

    private static FileAttribute<?>[] ownerOnly() {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return new FileAttribute<?>[] {
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
            };
        }
        return new FileAttribute<?>[0];
    }
}
