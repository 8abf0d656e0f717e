package io.apiwarden.it;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Notes, from outside the app, when a file was replaced and what it then held: a rename into the
 * folder is an inotify event, seen here within a fraction of a millisecond. The times are
 * {@link System#nanoTime()}, which on Linux is one clock for every process of the machine.
 */
final class FileReplacements implements AutoCloseable {
    /** The file held {@code content} at {@code nanos}, right after a replacement was seen. */
    static final class Seen {
        final long nanos;
        final String content;

        Seen(long nanos, String content) {
            this.nanos = nanos;
            this.content = content;
        }
    }

    private final Path file;
    private final WatchService watch;
    private final Thread thread;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    FileReplacements(Path file) throws IOException {
        this.file = file;
        this.watch = file.getFileSystem().newWatchService();
        file.getParent().register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
        thread = new Thread(this::run, "file-replacements");
        thread.setDaemon(true);
        thread.start();
    }

    List<Seen> seen() {
        return List.copyOf(seen);
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = watch.take();
                long now = System.nanoTime();
                for (WatchEvent<?> event : key.pollEvents()) {
                    if (file.getFileName().equals(event.context())) {
                        try {
                            seen.add(new Seen(now, Files.readString(file).trim()));
                        } catch (IOException e) {
                            // Replaced again while read: the next event has it.
                        }
                    }
                }
                key.reset();
            }
        } catch (ClosedWatchServiceException | InterruptedException e) {
            // closed: done
        }
    }

    @Override
    public void close() throws IOException {
        watch.close();
    }
}
