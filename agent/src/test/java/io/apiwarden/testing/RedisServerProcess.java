package io.apiwarden.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} on a free loopback port, for tests: started, killed with SIGKILL, restarted on
 * the same port, and shut down cleanly. The binary is the one {@code com.github.codemonstur:embedded-redis}
 * ships (Redis 6.2), extracted once per JVM, so a machine with only a JDK runs the tests; elsewhere, the
 * {@code redis-server} on the PATH ({@code -Dapiwarden.test.redis-server=/path} names another).
 */
public final class RedisServerProcess implements AutoCloseable {
    /** A cold start of Redis takes milliseconds; 20 s means it will not come up. */
    private static final Duration READY_WITHIN = Duration.ofSeconds(20);
    /** Redis exits within milliseconds of SIGTERM when it saves nothing. */
    private static final Duration EXIT_WITHIN = Duration.ofSeconds(10);

    private static Path binary;
    /** Servers still running, killed when the test JVM exits however the tests ended. */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly)));
    }

    private final Path dir;
    private final int port;
    private final List<String> extraArgs;
    private Process process;

    private RedisServerProcess(Path dir, int port, List<String> extraArgs) {
        this.dir = dir;
        this.port = port;
        this.extraArgs = extraArgs;
    }

    /** Starts a server on a free loopback port, with extra {@code redis-server} arguments such as {@code --requirepass}. */
    public static RedisServerProcess start(String... extraArgs) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("apiwarden-redis-");
        RedisServerProcess server = new RedisServerProcess(dir, freePort(), List.of(extraArgs));
        server.launch();
        return server;
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:port}. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Kills the server with SIGKILL, as a crash or an OOM kill would, and waits until it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(EXIT_WITHIN.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("redis-server survived SIGKILL for " + EXIT_WITHIN);
        }
    }

    /** Starts the server again on the same port, empty, and waits until it answers. */
    public void restart() throws IOException, InterruptedException {
        if (isAlive()) {
            kill();
        }
        launch();
    }

    /** Shuts the server down with SIGTERM and returns its exit code; SIGKILL if it does not exit in time. */
    public int shutDown() throws InterruptedException {
        if (process == null) {
            return 0;
        }
        process.destroy();
        if (!process.waitFor(EXIT_WITHIN.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(EXIT_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
            throw new IllegalStateException("redis-server did not exit within " + EXIT_WITHIN + " of SIGTERM; killed");
        }
        return process.exitValue();
    }

    /** Shuts the server down and removes its folder. */
    @Override
    public void close() throws IOException {
        try {
            shutDown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private void launch() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(Arrays.asList(
                binary().toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                // Nothing written to disk: each start is an empty server, and a kill loses nothing the test needs.
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString(),
                "--daemonize",
                "no"));
        command.addAll(extraArgs);
        Path log = dir.resolve("redis.log");
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        LIVE.add(process);
        process.onExit().thenAccept(LIVE::remove);
        awaitReady(log);
    }

    /** Polls with PING until the server answers (an error such as NOAUTH counts: it is listening). */
    private void awaitReady(Path log) throws IOException {
        // Stops looking once the process is gone, too: it will never answer.
        boolean answeredOrGone = Eventually.holdsWithin(READY_WITHIN, () -> !process.isAlive() || answersPing());
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    "redis-server exited with " + process.exitValue() + ":\n" + Files.readString(log));
        }
        if (answeredOrGone) {
            return;
        }
        process.destroyForcibly();
        throw new IllegalStateException(
                "redis-server did not answer within " + READY_WITHIN + ":\n" + Files.readString(log));
    }

    private boolean answersPing() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            s.setSoTimeout(1000);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            int first = in.read();
            return first == '+' || first == '-';
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The redis-server to run, extracted from embedded-redis and made executable on first use. */
    public static synchronized Path binary() throws IOException {
        if (binary != null) {
            return binary;
        }
        String chosen = System.getProperty("apiwarden.test.redis-server");
        if (chosen != null) {
            return binary = Paths.get(chosen);
        }
        String resource = bundledBinaryName();
        if (resource == null) {
            return binary = onPath();
        }
        Path dir = Files.createTempDirectory("apiwarden-redis-bin-");
        // Deleted at exit in the reverse order of these calls: the file first, then its folder.
        dir.toFile().deleteOnExit();
        Path file = dir.resolve("redis-server");
        file.toFile().deleteOnExit();
        try (InputStream in = RedisServerProcess.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalStateException(
                        resource + " is not on the test class path: is embedded-redis a test dependency?");
            }
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        if (!Files.isExecutable(file)) {
            throw new IllegalStateException(
                    file + " is not executable after extraction (is " + dir.getParent() + " mounted noexec?)");
        }
        return binary = file;
    }

    /** The binary embedded-redis 1.4.4 ships for this machine, or null when it has none. */
    private static String bundledBinaryName() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        if (os.contains("linux")) {
            return x64 ? "redis-server-6.2.6-v5-linux-amd64" : arm64 ? "redis-server-6.2.7-linux-arm64" : null;
        }
        if (os.contains("mac")) {
            return x64 ? "redis-server-6.2.6-v5-darwin-amd64" : arm64 ? "redis-server-6.2.6-v5-darwin-arm64" : null;
        }
        return null;
    }

    private static Path onPath() {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Paths.get(entry, "redis-server");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(
                "no redis-server for " + System.getProperty("os.name") + " " + System.getProperty("os.arch")
                        + " in embedded-redis, and none on the PATH: install one or set -Dapiwarden.test.redis-server");
    }
}
