package io.apiwarden.core.secret;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A folder as the kubelet mounts a Secret: the files' content in a timestamped folder ({@code ..2026_x}), a link
 * {@code ..data} to it, and each file a link through {@code ..data}. An update writes a new timestamped folder and
 * swaps {@code ..data} to it atomically (a new link renamed over the old one), then deletes the old folder.
 */
public final class KubernetesSecretMount {
    private final Path root;
    private int generation;

    public KubernetesSecretMount(Path root) {
        this.root = root;
    }

    /** Mounts {@code name} with {@code content} for the first time; the path the app is given. */
    public Path mount(String name, byte[] content) throws IOException {
        Path data = writeGeneration(name, content);
        Files.createSymbolicLink(root.resolve("..data"), data.getFileName());
        Path file = root.resolve(name);
        Files.createSymbolicLink(file, Path.of("..data", name));
        return file;
    }

    public Path mount(String name, String content) throws IOException {
        return mount(name, content.getBytes(StandardCharsets.UTF_8));
    }

    /** Updates the Secret as the kubelet does: new folder, atomic swap of {@code ..data}, old folder removed. */
    public void update(String name, byte[] content) throws IOException {
        Path old = Files.readSymbolicLink(root.resolve("..data"));
        Path data = writeGeneration(name, content);
        Path next = root.resolve("..data_tmp");
        Files.createSymbolicLink(next, data.getFileName());
        Files.move(next, root.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
        Path oldFolder = root.resolve(old);
        try (var files = Files.list(oldFolder)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.delete(f);
            }
        }
        Files.delete(oldFolder);
    }

    public void update(String name, String content) throws IOException {
        update(name, content.getBytes(StandardCharsets.UTF_8));
    }

    private Path writeGeneration(String name, byte[] content) throws IOException {
        // The kubelet names each generation by its time; the same size and second would fool a look at mtime alone.
        Path data = Files.createDirectory(root.resolve("..2026_11_26_00_00_0" + generation++ + ".000000001"));
        Files.write(data.resolve(name), content);
        Files.setLastModifiedTime(data.resolve(name), java.nio.file.attribute.FileTime.fromMillis(0));
        return data;
    }
}
