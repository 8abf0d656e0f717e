package io.apiwarden.clients.jdk.agent;

import static io.apiwarden.clients.jdk.agent.WeavingFixtures.BUILT;
import static io.apiwarden.clients.jdk.agent.WeavingFixtures.OTHER;
import static io.apiwarden.clients.jdk.agent.WeavingFixtures.REPLACEMENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.clients.jdk.agent.WeavingFixtures.BranchingBuilder;
import io.apiwarden.clients.jdk.agent.WeavingFixtures.GuardedBuilder;
import io.apiwarden.clients.jdk.agent.WeavingFixtures.RecordingHook;
import io.apiwarden.clients.jdk.agent.WeavingFixtures.SimpleBuilder;
import io.apiwarden.clients.jdk.agent.WeavingFixtures.ThrowingHook;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.http.HttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The weaving of {@code build()} on classes shaped like the JDK's builder, defined in a loader of
 * their own so that the JVM verifies the woven bytecode (its stack map frames included) as it would
 * the JDK's.
 */
class JdkHttpClientWeavingTest {
    @AfterEach
    void forget() {
        RecordingHook.SEEN.clear();
    }

    @Test
    void theBuiltClientGoesThroughTheHookAndTheAppGetsWhatTheHookReturns() throws Exception {
        Object builder = wovenInstance(SimpleBuilder.class, RecordingHook.class);

        assertThat(build(builder)).isSameAs(REPLACEMENT);
        assertThat(RecordingHook.SEEN).containsExactly(BUILT);
    }

    @Test
    void everyReturnOfAMethodWithLocalsAndBranchesIsWoven() throws Exception {
        Object builder = wovenInstance(BranchingBuilder.class, RecordingHook.class);

        assertThat(build(builder)).isSameAs(REPLACEMENT);
        assertThat(build(builder)).isSameAs(REPLACEMENT);
        assertThat(RecordingHook.SEEN).containsExactly(BUILT, OTHER);
    }

    @Test
    void aHookThatThrowsLeavesTheAppWithTheClientTheJdkBuilt() throws Exception {
        Object builder = wovenInstance(SimpleBuilder.class, ThrowingHook.class);

        assertThat(build(builder)).isSameAs(BUILT);
    }

    @Test
    void aHookThatCannotBeFoundLeavesTheAppWithTheClientTheJdkBuilt() throws Exception {
        byte[] woven = HookTransformer.weave(
                JdkHttpClientInstrumentation.weaving("io.apiwarden.agent.NoSuchHook", "wrap"),
                bytesOf(SimpleBuilder.class));

        assertThat(build(newInstance(define(SimpleBuilder.class, woven)))).isSameAs(BUILT);
    }

    @Test
    void aBuildWithATryOfItsOwnIsLeftAsItWas() throws Exception {
        byte[] original = bytesOf(GuardedBuilder.class);

        byte[] woven = HookTransformer.weave(
                JdkHttpClientInstrumentation.weaving(RecordingHook.class.getName(), "wrap"), original);

        assertThat(woven).isEqualTo(HookTransformer.weave((reader, next) -> next, original));
        assertThat(build(newInstance(define(GuardedBuilder.class, woven)))).isSameAs(BUILT);
        assertThat(RecordingHook.SEEN).isEmpty();
    }

    @Test
    void aClassWithoutBuildIsLeftAsItWas() throws Exception {
        byte[] original = bytesOf(RecordingHook.class);

        byte[] woven = HookTransformer.weave(
                JdkHttpClientInstrumentation.weaving(RecordingHook.class.getName(), "wrap"), original);

        // What ASM writes when it passes the class through untouched.
        assertThat(woven).isEqualTo(HookTransformer.weave((reader, next) -> next, original));
    }

    // --- helpers ------------------------------------------------------------------------------

    private static Object wovenInstance(Class<?> shape, Class<?> hook) throws Exception {
        byte[] woven =
                HookTransformer.weave(JdkHttpClientInstrumentation.weaving(hook.getName(), "wrap"), bytesOf(shape));
        return newInstance(define(shape, woven));
    }

    private static HttpClient build(Object builder) throws Exception {
        Method build = builder.getClass().getMethod("build");
        return (HttpClient) build.invoke(builder);
    }

    private static Object newInstance(Class<?> type) throws Exception {
        return type.getConstructor().newInstance();
    }

    private static Class<?> define(Class<?> shape, byte[] bytes) {
        return new ClassLoader(JdkHttpClientWeavingTest.class.getClassLoader()) {
            Class<?> define() {
                return defineClass(shape.getName(), bytes, 0, bytes.length);
            }
        }.define();
    }

    private static byte[] bytesOf(Class<?> type) throws IOException {
        String resource = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
            return in.readAllBytes();
        }
    }
}
