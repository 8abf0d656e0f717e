package io.apiwarden.unmanaged;

import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.scope.ApiScope;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.CodeSource;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The last-resort watch: every socket connect of the JVM (woven into the JDK's {@code Socket.connect} and
 * {@code SocketChannelImpl.connect}, and Netty's native {@code Socket.connect}) asks it, with the address, and a
 * connection to the API's host and port that no client the agent knows opened is named in a warning, once per
 * library, whatever the client.
 *
 * <p>Cost: for any other address, an {@code instanceof}, an int comparison of the port per API and, on an API's port
 * only, a host comparison. With several APIs a connection to any API's host and port is watched, and the warning
 * names that API. Only a connection to the API's host and port looks at the stack; connections are pooled, so that
 * is rare beside calls.
 *
 * <p>Who opened it: the stack, innermost frame first, skipping the JDK's and Netty's plumbing. The first frame that
 * says something decides: the agent's own code (its token calls, its Redis store) and the clients the agent manages
 * or watches call by call ({@link KnownClient}) are left alone; any other class names the library by its package
 * ({@link CallerLibrary}). Asking each client by its classes on the stack, rather than a marker the engine would set
 * around a managed attempt, is what holds for async clients: they connect on event loops and I/O threads, never
 * inside the attempt's call, but their own classes are on that stack (Reactor Netty's connector, HttpClient 5's
 * reactor, the JDK client's exchange). Netty's bootstrap leaves no frame of the client above it; the thread then
 * says whose loop it is (Vert.x's threads are its own class), and a plain Netty loop is named as Netty, with its
 * thread's name.
 *
 * <p>No lambdas on the connect path: each costs a class spun on the app's first call (docs/benchmarks.md).
 */
public final class ConnectWatch implements BiPredicate<Object, Object> {
    /** The {@code client} the woven connect sites name: {@link io.apiwarden.unmanaged.UnmanagedClient}'s are the others. */
    public static final String SITE = "CONNECT";

    /** A warning per library; past this many the watch stays quiet (an app whose every package connects to the API). */
    private static final int MAX_LIBRARIES = 16;
    /** Deep enough for a framework's call stack above the client; a connect's library is within the first frames. */
    private static final int MAX_FRAMES = 256;
    /** The prefix of the agent's own threads' names (its token client's, its timer's). */
    private static final String AGENT_THREADS = "apiwarden-";

    private static final List<String> PLUMBING =
            List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "io.netty.", "kotlin.", "kotlinx.coroutines.");

    /** Each API's port, host, and host as an address when its base URL names it by one (never a DNS look-up). */
    private final int[] ports;

    private final String[] hosts;
    private final InetAddress[] literalHosts;
    private final WatchedApi[] apis;

    private final List<KnownClient> known;
    /** A managed client connects from plain Netty loops: a Netty-only connect may be its, and is left alone. */
    private final boolean plainNettyLoopsManaged;

    private final Predicate<Class<?>> agentOwn;
    private final String managedClients;
    private final Consumer<String> warnings;
    private final Map<String, Boolean> warned = new ConcurrentHashMap<>();
    private final StackWalker stack = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /**
     * @param known the clients whose connections are left alone or named as they are, in the order asked
     * @param agentOwn whether a class is the agent's own ({@link #sameCodeSourceAs} in the agent)
     * @param managedClients the clients the agent manages, as a warning names them
     */
    public ConnectWatch(
            ApiScope scope,
            List<KnownClient> known,
            Predicate<Class<?>> agentOwn,
            String managedClients,
            Consumer<String> warnings) {
        this(List.of(WatchedApi.only(scope)), known, agentOwn, managedClients, warnings);
    }

    /** A watch of the connections to any of {@code apis}' hosts and ports. */
    public ConnectWatch(
            List<WatchedApi> apis,
            List<KnownClient> known,
            Predicate<Class<?>> agentOwn,
            String managedClients,
            Consumer<String> warnings) {
        this.apis = apis.toArray(new WatchedApi[0]);
        this.ports = new int[this.apis.length];
        this.hosts = new String[this.apis.length];
        this.literalHosts = new InetAddress[this.apis.length];
        for (int i = 0; i < this.apis.length; i++) {
            URI base = this.apis[i].scope.baseUrl();
            ports[i] = ApiScope.effectivePort(base.getScheme(), base.getPort());
            hosts[i] = base.getHost();
            literalHosts[i] = literal(hosts[i]);
        }
        this.known = List.copyOf(known);
        boolean onPlainNettyLoops = false;
        for (KnownClient k : known) {
            onPlainNettyLoops |= k.library == null && k.onPlainNettyLoops;
        }
        this.plainNettyLoopsManaged = onPlainNettyLoops;
        this.agentOwn = agentOwn;
        this.managedClients = managedClients;
        this.warnings = warnings;
    }

    /** Whether a class comes from where {@code agentClass} does: the agent's jar, relocated libraries included. */
    public static Predicate<Class<?>> sameCodeSourceAs(Class<?> agentClass) {
        CodeSource agent = agentClass.getProtectionDomain().getCodeSource();
        if (agent == null || agent.getLocation() == null) {
            return type -> false;
        }
        String location = agent.getLocation().toString();
        ClassValue<Boolean> own = new ClassValue<>() {
            @Override
            protected Boolean computeValue(Class<?> type) {
                CodeSource source = type.getProtectionDomain().getCodeSource();
                return source != null
                        && source.getLocation() != null
                        && location.equals(source.getLocation().toString());
            }
        };
        return new OwnClasses(own);
    }

    private static final class OwnClasses implements Predicate<Class<?>> {
        private final ClassValue<Boolean> own;

        OwnClasses(ClassValue<Boolean> own) {
            this.own = own;
        }

        @Override
        public boolean test(Class<?> type) {
            return own.get(type);
        }
    }

    /**
     * Called at the start of a connect with the socket or channel and the address; always false, so that every connect
     * is asked (true, which stops the woven class asking, only if the watch itself failed). Never throws.
     */
    @Override
    public boolean test(Object socket, Object address) {
        try {
            if (!(address instanceof InetSocketAddress)) {
                return false;
            }
            WatchedApi api = apiAt((InetSocketAddress) address);
            if (api == null || warned.size() >= MAX_LIBRARIES) {
                return false;
            }
            Thread thread = Thread.currentThread();
            if (thread.getName().startsWith(AGENT_THREADS)) {
                return false;
            }
            CallerLibrary library = opener(thread);
            if (library != null && warned.putIfAbsent(library.key(), Boolean.TRUE) == null) {
                warnings.accept(warning(library, api));
            }
            return false;
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.DEBUG,
                    "connect-watch",
                    "connections to the API cannot be watched here; no warning will name their clients",
                    t);
            return true;
        }
    }

    /** The API whose host and port {@code to} is, or null. */
    private WatchedApi apiAt(InetSocketAddress to) {
        int port = to.getPort();
        for (int i = 0; i < ports.length; i++) {
            // getHostString never looks a name up: the name the client connected by, or the address's literal.
            if (ports[i] == port
                    && (hosts[i].equalsIgnoreCase(to.getHostString())
                            || literalHosts[i] != null && literalHosts[i].equals(to.getAddress()))) {
                return apis[i];
            }
        }
        return null;
    }

    /** The library that opened this connection, or null when it is the agent's or a client the agent knows of. */
    CallerLibrary opener(Thread thread) {
        return stack.walk(new Opener(thread));
    }

    /** Walks the stack for {@link #opener}: a class and a loop, not a stream of lambdas, each a spun class. */
    private final class Opener implements Function<Stream<StackWalker.StackFrame>, CallerLibrary> {
        private final Thread thread;

        Opener(Thread thread) {
            this.thread = thread;
        }

        @Override
        public CallerLibrary apply(Stream<StackWalker.StackFrame> frames) {
            boolean netty = false;
            boolean watchFrames = true;
            int depth = 0;
            for (Iterator<StackWalker.StackFrame> it = frames.iterator(); it.hasNext() && depth < MAX_FRAMES; depth++) {
                Class<?> type = it.next().getDeclaringClass();
                // The watch's own frames, on top, say nothing.
                watchFrames &= type == ConnectWatch.class || type == Opener.class;
                if (watchFrames) {
                    continue;
                }
                Verdict verdict = verdict(type);
                if (verdict != null) {
                    return verdict.library;
                }
                netty |= type.getName().startsWith("io.netty.");
            }
            Verdict byThread = verdict(thread.getClass());
            if (byThread != null) {
                return byThread.library;
            }
            if (netty) {
                return plainNettyLoopsManaged ? null : CallerLibrary.nettyEventLoop(thread.getName());
            }
            return CallerLibrary.onThread(thread.getName());
        }
    }

    /** What a class on the stack says of the connection: null when it is plumbing and says nothing. */
    private Verdict verdict(Class<?> type) {
        if (agentOwn.test(type)) {
            return Verdict.LEAVE;
        }
        for (KnownClient client : known) {
            if (client.opensConnectionsIn.test(type)) {
                return client.library == null ? Verdict.LEAVE : new Verdict(client.library);
            }
        }
        String name = type.getName();
        for (String plumbing : PLUMBING) {
            if (name.startsWith(plumbing)) {
                return null;
            }
        }
        return new Verdict(CallerLibrary.of(name, managedClients));
    }

    private String warning(CallerLibrary library, WatchedApi api) {
        return "a connection to " + api.origin() + ", " + api.hostAndPort() + ", went out through "
                + library.name() + ", which the agent does not manage: calls to " + api.theApi()
                + " through it get no bearer token, no refresh,"
                + " no back-off on rate limits and no spans. " + library.advice() + " Or switch this warning off with "
                + ConfigProperty.UNMANAGED_WARNINGS_ENABLED.key() + "=false. Said once per client library.";
    }

    /** The host as an address when it is an IPv4 or IPv6 literal, which is parsed, never looked up; else null. */
    private static InetAddress literal(String host) {
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        boolean ipv4 = true;
        for (int i = 0; i < bare.length(); i++) {
            char c = bare.charAt(i);
            ipv4 &= c == '.' || Character.isDigit(c);
        }
        if (!ipv4 && bare.indexOf(':') < 0) {
            return null;
        }
        try {
            return InetAddress.getByName(bare);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** A client the agent knows by the classes that open its connections. */
    public static final class KnownClient {
        final Predicate<Class<?>> opensConnectionsIn;
        /** Null when its connections are left alone: it is managed, or watched call by call. */
        final CallerLibrary library;
        /** Whether it connects from plain Netty event loops ({@code ClientModule.connectsFromPlainNettyLoops}). */
        final boolean onPlainNettyLoops;

        private KnownClient(Predicate<Class<?>> opensConnectionsIn, CallerLibrary library, boolean onPlainNettyLoops) {
            this.opensConnectionsIn = opensConnectionsIn;
            this.library = library;
            this.onPlainNettyLoops = onPlainNettyLoops;
        }

        /** Managed, or named by a watch of its own calls (which sees their URLs): the last resort leaves it alone. */
        public static KnownClient leftAlone(Predicate<Class<?>> opensConnectionsIn) {
            return new KnownClient(opensConnectionsIn, null, false);
        }

        /** Managed, and connecting from plain Netty loops as well: Netty-only connects are left alone too. */
        public static KnownClient leftAloneOnPlainNettyLoops(Predicate<Class<?>> opensConnectionsIn) {
            return new KnownClient(opensConnectionsIn, null, true);
        }

        /** A client the agent would manage, switched off with {@code switchKey}: named, with the switch as advice. */
        public static KnownClient switchedOff(
                Predicate<Class<?>> opensConnectionsIn, String displayName, String switchKey) {
            return new KnownClient(opensConnectionsIn, CallerLibrary.switchedOff(displayName, switchKey), false);
        }
    }

    private static final class Verdict {
        static final Verdict LEAVE = new Verdict(null);

        final CallerLibrary library;

        Verdict(CallerLibrary library) {
            this.library = library;
        }
    }
}
