package io.apiwarden.bench;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The Retry-After soak's app, in a child JVM with the agent: {@code callersPerWay} callers in each way of
 * {@link AppCalls.Way} (threads for the blocking ways, calls kept pending for the asynchronous ones) call
 * the API without pause, each call named {@code ?call=N}, until the API has counted {@code resends}
 * resends ({@link RetryAfterSoakApi#STATE_PATH}, outside the API, so not managed). It prints how long that
 * took and how the calls ended.
 */
final class RetryAfterSoakLoad {
    static final String CALLS_LINE = "retry-after-soak";
    /** How often the app asks the API how many resends it has counted. */
    private static final long POLL_MILLIS = 100;

    private final URI url;
    private final AppCalls app;
    private final AtomicLong nextCall = new AtomicLong();
    private final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    private volatile boolean enough;

    private RetryAfterSoakLoad(URI url, AppCalls app) {
        this.url = url;
        this.app = app;
    }

    static void run(URI url, long resends, int callersPerWay) throws InterruptedException {
        long start = System.nanoTime();
        try (AppCalls app = AppCalls.withBothClients()) {
            RetryAfterSoakLoad load = new RetryAfterSoakLoad(url, app);
            List<Thread> callers = load.startCallers(callersPerWay);
            URI state = url.resolve(RetryAfterSoakApi.STATE_PATH);
            while (Long.parseLong(app.jdkGetBody(state).trim()) < resends) {
                Thread.sleep(POLL_MILLIS);
            }
            load.enough = true;
            for (Thread caller : callers) {
                caller.join();
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println(CALLS_LINE + " " + millis + " " + SoakLoad.countsOf(load.statuses));
        }
    }

    private List<Thread> startCallers(int callersPerWay) {
        List<Thread> callers = new ArrayList<>();
        for (AppCalls.Way way : AppCalls.Way.JDK_AND_OKHTTP) {
            boolean blocking = way == AppCalls.Way.JDK_SEND || way == AppCalls.Way.OKHTTP_EXECUTE;
            String name = "retry-after-soak-" + way.name().toLowerCase(Locale.ROOT);
            if (blocking) {
                for (int t = 0; t < callersPerWay; t++) {
                    callers.add(started(new Thread(() -> callBlocking(way), name + "-" + t)));
                }
            } else {
                callers.add(started(new Thread(() -> callAsync(way, callersPerWay), name)));
            }
        }
        return callers;
    }

    private static Thread started(Thread t) {
        t.start();
        return t;
    }

    private URI nextUrl() {
        return URI.create(url + "?call=" + nextCall.incrementAndGet());
    }

    private void callBlocking(AppCalls.Way way) {
        while (!enough) {
            int status;
            try {
                status = app.call(way, nextUrl(), true);
            } catch (RuntimeException e) {
                status = -1;
            }
            ended(status);
        }
    }

    /** Keeps {@code pendingCalls} calls pending until there are enough resends, then waits for the last ones. */
    private void callAsync(AppCalls.Way way, int pendingCalls) {
        Semaphore pending = new Semaphore(pendingCalls);
        try {
            while (!enough) {
                if (!pending.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                URI next = nextUrl();
                (way == AppCalls.Way.JDK_SEND_ASYNC
                                ? app.jdkSendAsync(app.jdkRequest(next, true))
                                : app.okhttpEnqueue(app.okhttpRequest(next, true)))
                        .whenComplete((status, failure) -> {
                            ended(failure == null ? status : -1);
                            pending.release();
                        });
            }
            pending.acquire(pendingCalls);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void ended(int status) {
        statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
    }
}
