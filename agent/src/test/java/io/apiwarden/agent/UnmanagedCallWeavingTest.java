package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.agent.UnmanagedWeavingFixtures.Client;
import io.apiwarden.agent.UnmanagedWeavingFixtures.RecordingHook;
import io.apiwarden.agent.UnmanagedWeavingFixtures.ThrowingHook;
import io.apiwarden.clients.apache4.agent.Apache4Module;
import io.apiwarden.clients.apache5.agent.Apache5Module;
import io.apiwarden.unmanaged.ConnectWatch;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watch woven into a client the agent does not manage, on a class defined in a loader of its own so
 * that the JVM verifies the woven bytecode (the added method's frames, and the original's) as it would
 * a library's.
 */
class UnmanagedCallWeavingTest {
    private static final String CLIENT = Client.class.getName().replace('.', '/');
    private static final String SEND_WITH_CONTEXT = "(Ljava/lang/String;Ljava/lang/Object;)";

    @AfterEach
    void forget() {
        RecordingHook.reset();
    }

    @Test
    void eachCallHandsItsArgumentsToTheWatchUntilTheWatchIsOver() throws Exception {
        Object client = woven(site("send", SEND_WITH_CONTEXT, 1, 2), RecordingHook.class);
        Object context = new Object();

        assertThat(send(client, "a", context)).isEqualTo("sent a");
        assertThat(send(client, "", null)).isEqualTo("nothing");
        RecordingHook.answer = true;
        assertThat(send(client, "b", context)).isEqualTo("sent b");
        assertThat(send(client, "c", context)).isEqualTo("sent c");

        assertThat(RecordingHook.CLIENTS)
                .as("the watch is asked for once per class")
                .containsExactly("TEST_CLIENT");
        assertThat(RecordingHook.CALLS)
                .as("nothing after the watch said it was over")
                .containsExactly(Arrays.asList("a", context), Arrays.asList("", null), Arrays.asList("b", context));
    }

    @Test
    void aMissingArgumentIsHandedOverAsNull() throws Exception {
        Object client = woven(site("send", SEND_WITH_CONTEXT, 0, -1), RecordingHook.class);

        send(client, "a", "context");

        assertThat(RecordingHook.CALLS).singleElement().satisfies(call -> {
            assertThat(call.get(0)).isSameAs(client);
            assertThat(call.get(1)).isNull();
        });
    }

    @Test
    void aMethodThatStartsWithAJumpTargetKeepsItsFrames() throws Exception {
        Object client = woven(site("send", "(Ljava/lang/String;Ljava/lang/Object;I)", 1, 2), RecordingHook.class);

        assertThat(client.getClass()
                        .getMethod("send", String.class, Object.class, int.class)
                        .invoke(client, "a", null, 3))
                .isEqualTo(0);
        assertThat(RecordingHook.CALLS).as("once per call, not once per loop").hasSize(1);
        assertThat(send(client, "b", null))
                .as("the other overload is not watched")
                .isEqualTo("sent b");
        assertThat(RecordingHook.CALLS).hasSize(1);
    }

    @Test
    void aWatchThatThrowsIsNeverAskedAgainAndTheCallGoesOn() throws Exception {
        Object client = woven(site("send", SEND_WITH_CONTEXT, 1, 2), ThrowingHook.class);

        assertThat(send(client, "a", null)).isEqualTo("sent a");
        assertThat(send(client, "b", null)).isEqualTo("sent b");
        assertThat(ThrowingHook.CLIENTS).containsExactly("TEST_CLIENT");
    }

    @Test
    void aHookThatCannotBeFoundLeavesTheCallAsItWas() throws Exception {
        Object client = woven(site("send", SEND_WITH_CONTEXT, 1, 2), "io.apiwarden.agent.NoSuchHook");

        assertThat(send(client, "a", null)).isEqualTo("sent a");
        assertThat(send(client, "b", null)).isEqualTo("sent b");
    }

    @Test
    void aClassWithoutTheMethodIsLeftAsItWas() throws Exception {
        byte[] original = bytesOf(Client.class);

        byte[] woven = HookTransformer.weave(
                UnmanagedClientInstrumentation.weaving(site("execute", "(", 1, 2), RecordingHook.class.getName()),
                original);

        assertThat(woven).isEqualTo(HookTransformer.weave((reader, next) -> next, original));
    }

    @Test
    void staticMethodsAreNotWatched() throws Exception {
        Object client = woven(site("send", "(Ljava/lang/String;)", 0, -1), RecordingHook.class);

        assertThat(client.getClass().getMethod("send", String.class).invoke(null, "a"))
                .isEqualTo("static a");
        assertThat(RecordingHook.CALLS).isEmpty();
    }

    @Test
    void everyWatchedClassIsNamedByTheSitesAndTheSitesCoverEachClient() {
        List<UnmanagedClientInstrumentation.Site> sites = UnmanagedClientInstrumentation.sites(Set.of());
        assertThat(UnmanagedClientInstrumentation.sites(new Apache5Module().managedClassesTheWatchKnows()))
                .extracting(s -> s.className)
                .as(
                        "the clients the builders build (classic and async) are managed and not watched, the minimal ones are")
                .doesNotContain(
                        "org/apache/hc/client5/http/impl/classic/InternalHttpClient",
                        "org/apache/hc/client5/http/impl/async/InternalAbstractHttpAsyncClient")
                .contains(
                        "org/apache/hc/client5/http/impl/classic/MinimalHttpClient",
                        "org/apache/hc/client5/http/impl/async/AbstractMinimalHttpAsyncClientBase");
        assertThat(UnmanagedClientInstrumentation.sites(new Apache4Module().managedClassesTheWatchKnows()))
                .extracting(s -> s.className)
                .as("Apache HttpClient 4's builder's client is managed, its minimal and deprecated clients are watched")
                .doesNotContain("org/apache/http/impl/client/InternalHttpClient")
                .contains(
                        "org/apache/http/impl/client/MinimalHttpClient",
                        "org/apache/http/impl/client/AbstractHttpClient");
        assertThat(sites)
                .extracting(s -> s.className)
                .as("with the agent's management switched off, they are watched too")
                .contains(
                        "org/apache/hc/client5/http/impl/classic/InternalHttpClient",
                        "org/apache/hc/client5/http/impl/async/InternalAbstractHttpAsyncClient",
                        "org/apache/http/impl/client/InternalHttpClient");

        assertThat(sites)
                .extracting(s -> s.client)
                .containsOnly(
                        "HTTP_URL_CONNECTION",
                        "APACHE_HTTPCLIENT_4",
                        "APACHE_HTTPCLIENT_5",
                        "JETTY",
                        ConnectWatch.SITE);
        assertThat(sites)
                .extracting(s -> s.client)
                .isSubsetOf(Stream.concat(
                                Arrays.stream(io.apiwarden.unmanaged.UnmanagedClient.values())
                                        .map(Enum::name),
                                Stream.of(ConnectWatch.SITE))
                        .toList());
        assertThat(UnmanagedClientInstrumentation.sites(Set.of("java/net/Socket", "sun/nio/ch/SocketChannelImpl")))
                .as("the last resort is never switched off by a module")
                .extracting(s -> s.className)
                .contains("java/net/Socket", "sun/nio/ch/SocketChannelImpl", "io/netty/channel/unix/Socket");
        assertThat(sites).extracting(s -> s.className).doesNotHaveDuplicates();
    }

    @Test
    void aConnectHandsTheSocketAndItsAddressToTheLastResort() throws Exception {
        Object socket = woven(
                new UnmanagedClientInstrumentation.Site(
                        CLIENT, "connect", "(Ljava/net/SocketAddress;I)V", 0, 1, ConnectWatch.SITE),
                RecordingHook.class);
        InetSocketAddress api = InetSocketAddress.createUnresolved("api.example.com", 443);

        socket.getClass().getMethod("connect", SocketAddress.class, int.class).invoke(socket, api, 10);
        socket.getClass().getMethod("connect", SocketAddress.class, int.class).invoke(socket, api, 10);

        assertThat(RecordingHook.CLIENTS).containsExactly(ConnectWatch.SITE);
        assertThat(RecordingHook.CALLS)
                .as("the last resort is asked at every connect: it never says it is over")
                .containsExactly(Arrays.asList(socket, api), Arrays.asList(socket, api));
    }

    /** The JDK classes are not defined here (java.* cannot be), but their woven bytes must call the watch first. */
    @Test
    void theRunningJdksConnectMethodsAreTheOnesWoven() throws Exception {
        for (UnmanagedClientInstrumentation.Site site : UnmanagedClientInstrumentation.connectSites()) {
            byte[] original;
            try (InputStream in = ClassLoader.getSystemResourceAsStream(site.className + ".class")) {
                if (in == null) {
                    assertThat(site.className)
                            .as("only Netty's native socket may be absent")
                            .startsWith("io/netty/");
                    continue;
                }
                original = in.readAllBytes();
            }
            byte[] woven = HookTransformer.weave(
                    UnmanagedClientInstrumentation.weaving(site, RecordingHook.class.getName()), original);

            assertThat(firstCallIn(woven, site))
                    .as(site.className + "." + site.method + " starts by asking the watch")
                    .isEqualTo(site.className + "." + UnmanagedCallWeaving.CHECK);
        }
    }

    @Test
    void eachModuleClaimsTheClassesThatOpenItsConnections() throws Exception {
        Map<String, Class<?>> connecting = Map.of(
                "jdk-http-client",
                Class.forName("jdk.internal.net.http.HttpClientImpl"),
                "okhttp",
                okhttp3.OkHttpClient.class,
                "reactor-netty",
                reactor.netty.http.client.HttpClient.class,
                "apache-httpclient",
                org.apache.hc.client5.http.impl.classic.HttpClients.class,
                "apache-httpclient4",
                org.apache.http.impl.client.HttpClients.class,
                "http-url-connection",
                Class.forName("sun.net.www.http.HttpClient"),
                "vertx-http-client",
                Class.forName("io.vertx.core.impl.VertxThread"),
                "jetty-httpclient",
                org.eclipse.jetty.client.HttpClient.class,
                "micronaut-http-client",
                Class.forName("io.micronaut.http.client.netty.DefaultHttpClient"),
                "ktor-client",
                Class.forName("io.ktor.client.engine.cio.CIOEngine"));
        for (ClientModule module : ClientModules.ALL) {
            assertThat(connecting).as("a class of " + module.name()).containsKey(module.name());
            assertThat(module.opensConnectionsIn(connecting.get(module.name())))
                    .as(module.name())
                    .isTrue();
            assertThat(module.opensConnectionsIn(java.net.Socket.class)).isFalse();
            assertThat(module.opensConnectionsIn(UnmanagedCallWeavingTest.class))
                    .isFalse();
        }
    }

    // --- helpers ------------------------------------------------------------------------------

    private static UnmanagedClientInstrumentation.Site site(
            String method, String descriptorPrefix, int first, int second) {
        return new UnmanagedClientInstrumentation.Site(CLIENT, method, descriptorPrefix, first, second, "TEST_CLIENT");
    }

    private static Object woven(UnmanagedClientInstrumentation.Site site, Class<?> hook) throws Exception {
        return woven(site, hook.getName());
    }

    private static Object woven(UnmanagedClientInstrumentation.Site site, String hook) throws Exception {
        byte[] woven = HookTransformer.weave(UnmanagedClientInstrumentation.weaving(site, hook), bytesOf(Client.class));
        Class<?> type = new ClassLoader(UnmanagedCallWeavingTest.class.getClassLoader()) {
            Class<?> define() {
                return defineClass(Client.class.getName(), woven, 0, woven.length);
            }
        }.define();
        return type.getConstructor().newInstance();
    }

    private static String send(Object client, String url, Object context) throws Exception {
        return (String)
                client.getClass().getMethod("send", String.class, Object.class).invoke(client, url, context);
    }

    /** The first method the woven {@code site} method calls, as {@code owner.name}. */
    private static String firstCallIn(byte[] woven, UnmanagedClientInstrumentation.Site site) {
        String[] first = new String[1];
        new ClassReader(woven)
                .accept(
                        new ClassVisitor(Opcodes.ASM9) {
                            @Override
                            public MethodVisitor visitMethod(
                                    int access, String name, String descriptor, String signature, String[] exceptions) {
                                if (!site.matches(name, descriptor)) {
                                    return null;
                                }
                                return new MethodVisitor(Opcodes.ASM9) {
                                    @Override
                                    public void visitMethodInsn(
                                            int opcode, String owner, String method, String desc, boolean itf) {
                                        if (first[0] == null) {
                                            first[0] = owner + "." + method;
                                        }
                                    }
                                };
                            }
                        },
                        0);
        return first[0];
    }

    private static byte[] bytesOf(Class<?> type) throws IOException {
        String resource = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
            return in.readAllBytes();
        }
    }
}
