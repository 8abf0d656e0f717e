package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.agent.UnmanagedWeavingFixtures.Client;
import io.apiwarden.agent.UnmanagedWeavingFixtures.RecordingHook;
import io.apiwarden.agent.UnmanagedWeavingFixtures.ThrowingHook;
import io.apiwarden.clients.apache4.agent.Apache4Module;
import io.apiwarden.clients.apache5.agent.Apache5Module;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
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
                .containsOnly("HTTP_URL_CONNECTION", "APACHE_HTTPCLIENT_4", "APACHE_HTTPCLIENT_5", "JETTY");
        assertThat(sites)
                .extracting(s -> s.client)
                .isSubsetOf(Arrays.stream(io.apiwarden.unmanaged.UnmanagedClient.values())
                        .map(Enum::name)
                        .toList());
        assertThat(sites).extracting(s -> s.className).doesNotHaveDuplicates();
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

    private static byte[] bytesOf(Class<?> type) throws IOException {
        String resource = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
            return in.readAllBytes();
        }
    }
}
