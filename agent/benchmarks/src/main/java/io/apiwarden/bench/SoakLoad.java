package io.apiwarden.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * The soak's app, in a child JVM with the agent: {@code calls} managed calls, a quarter in each way of
 * {@link AppCalls.Way}, several at a time. It prints what the process holds (heap used after a full
 * GC, live threads, open file descriptors) when a tenth of the calls are done, half, and all, then how
 * the calls ended.
 */
final class SoakLoad {
    static final String FIGURE_LINE = "soak-figure";
    static final String CALLS_LINE = "soak-calls";
    /** The soak's own callers, which end before the last figures and so are not counted in any. */
    private static final String WORKER_PREFIX = "soak-";
    /** The blocking ways each call from this many threads at once... */
    private static final int THREADS_PER_BLOCKING_WAY = 2;
    /** ...and the asynchronous ways keep this many calls pending: a busy app, not a storm. */
    private static final int PENDING_PER_ASYNC_WAY = 4;

    private final URI url;
    private final long calls;
    private final AppCalls app;
    private final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    private final AtomicLong ended = new AtomicLong();
    private final long tenth;
    private final long half;
    private final CountDownLatch tenthEnded = new CountDownLatch(1);
    private final CountDownLatch halfEnded = new CountDownLatch(1);

    private SoakLoad(URI url, long calls, AppCalls app) {
        this.url = url;
        this.calls = calls;
        this.app = app;
        this.tenth = Math.max(1, calls / 10);
        this.half = Math.max(1, calls / 2);
    }

    /** Makes the calls, printing the figures' lines as they come and the calls' line last. */
    static void run(URI url, long calls) throws InterruptedException {
        long start = System.nanoTime();
        try (AppCalls app = AppCalls.withBothClients()) {
            SoakLoad load = new SoakLoad(url, calls, app);
            List<Thread> workers = load.startWorkers();
            load.tenthEnded.await();
            System.out.println(figures("start"));
            load.halfEnded.await();
            System.out.println(figures("middle"));
            for (Thread worker : workers) {
                worker.join();
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println(figures("end"));
            System.out.println(CALLS_LINE + " " + millis + " " + load.statusCounts());
        }
    }

    private List<Thread> startWorkers() {
        List<Thread> workers = new ArrayList<>();
        AppCalls.Way[] ways = AppCalls.Way.JDK_AND_OKHTTP.toArray(new AppCalls.Way[0]);
        for (int i = 0; i < ways.length; i++) {
            AppCalls.Way way = ways[i];
            // An even share, the first ways taking one more when the calls do not divide by four.
            AtomicLong left = new AtomicLong(calls / ways.length + (i < calls % ways.length ? 1 : 0));
            boolean blocking = way == AppCalls.Way.JDK_SEND || way == AppCalls.Way.OKHTTP_EXECUTE;
            for (int t = 0; t < (blocking ? THREADS_PER_BLOCKING_WAY : 1); t++) {
                Thread worker = new Thread(
                        blocking ? () -> callBlocking(way, left) : () -> callAsync(way, left),
                        WORKER_PREFIX + way.name().toLowerCase(Locale.ROOT) + "-" + t);
                worker.start();
                workers.add(worker);
            }
        }
        return workers;
    }

    private void callBlocking(AppCalls.Way way, AtomicLong left) {
        while (left.getAndDecrement() > 0) {
            int status;
            try {
                status = app.call(way, url, true);
            } catch (RuntimeException e) {
                status = -1;
            }
            ended(status);
        }
    }

    /** Keeps {@link #PENDING_PER_ASYNC_WAY} calls pending until none are left, then waits for the last ones. */
    private void callAsync(AppCalls.Way way, AtomicLong left) {
        Semaphore pending = new Semaphore(PENDING_PER_ASYNC_WAY);
        try {
            while (left.getAndDecrement() > 0) {
                pending.acquire();
                (way == AppCalls.Way.JDK_SEND_ASYNC
                                ? app.jdkSendAsync(app.jdkRequest(url, true))
                                : app.okhttpEnqueue(app.okhttpRequest(url, true)))
                        .whenComplete((status, failure) -> {
                            ended(failure == null ? status : -1);
                            pending.release();
                        });
            }
            pending.acquire(PENDING_PER_ASYNC_WAY);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void ended(int status) {
        statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
        long n = ended.incrementAndGet();
        if (n == tenth) {
            tenthEnded.countDown();
        }
        if (n == half) {
            halfEnded.countDown();
        }
    }

    private String statusCounts() {
        return countsOf(statuses);
    }

    /** {@code {200=999998, 401=2}}; -1 counts calls that failed without a response. */
    static String countsOf(Map<Integer, LongAdder> statuses) {
        Map<Integer, Long> sorted = new TreeMap<>();
        statuses.forEach((status, count) -> sorted.put(status, count.sum()));
        return sorted.toString().replace(" ", "");
    }

    /**
     * {@code soak-figure PHASE HEAP_BYTES THREADS FDS}: heap used after a full GC, live threads but the soak's
     * own callers, open descriptors.
     */
    static String figures(String phase) {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long threads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !t.getName().startsWith(WORKER_PREFIX))
                .count();
        return FIGURE_LINE + " " + phase + " " + heap + " " + threads + " " + openFileDescriptors();
    }

    /** Entries of {@code /proc/self/fd}, less the one this listing holds open. */
    static long openFileDescriptors() {
        try (Stream<Path> fds = Files.list(Paths.get("/proc/self/fd"))) {
            return fds.count() - 1;
        } catch (IOException e) {
            throw new UncheckedIOException("open file descriptors are counted on Linux only", e);
        }
    }
}
