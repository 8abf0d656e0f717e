package io.apiwarden.clients.apache5.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.agent.LinkedWeaving;
import java.util.Map;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Puts the agent into Apache HttpClient 5: every classic client is built by
 * {@code HttpClientBuilder.build()} ({@code HttpClients.createDefault()}, {@code custom().build()},
 * Spring's request factory), every async client with an exec chain by
 * {@code HttpAsyncClientBuilder.build()} ({@code HttpAsyncClients.createDefault()}, Spring's
 * {@code HttpComponentsClientHttpConnector}) or {@code H2AsyncClientBuilder.build()}. The first thing
 * each does is now {@code ApacheHttpHook.beforeBuild(this)}, which adds the agent's exec-chain handler
 * to the builder; the rest is the client's own extension point, not weaving. The minimal clients
 * ({@code createMinimal()}) have no exec chain and are left alone.
 *
 * <p>The inserted code has no branch, so the method's stack map frames stay as they were.
 */
final class ApacheHttpInstrumentation {
    private static final String HOOK = Type.getInternalName(ApacheHttpHook.class);

    private ApacheHttpInstrumentation() {}

    static final String CLASSIC_BUILDER = "org/apache/hc/client5/http/impl/classic/HttpClientBuilder";
    static final String ASYNC_BUILDER = "org/apache/hc/client5/http/impl/async/HttpAsyncClientBuilder";
    static final String H2_ASYNC_BUILDER = "org/apache/hc/client5/http/impl/async/H2AsyncClientBuilder";

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        HookTransformer.Weaving async =
                buildWeaving("()Lorg/apache/hc/client5/http/impl/async/CloseableHttpAsyncClient;");
        return Map.of(
                CLASSIC_BUILDER,
                buildWeaving("()Lorg/apache/hc/client5/http/impl/classic/CloseableHttpClient;"),
                ASYNC_BUILDER,
                async,
                H2_ASYNC_BUILDER,
                async);
    }

    /** {@code build()}: first of all, {@code ApacheHttpHook.beforeBuild(this)}. */
    private static HookTransformer.Weaving buildWeaving(String descriptor) {
        return new LinkedWeaving(ApacheHttpHook.class, (access, name, desc, mv) -> {
            if ((access & Opcodes.ACC_STATIC) != 0 || !name.equals("build") || !desc.equals(descriptor)) {
                return mv;
            }
            return new MethodVisitor(Opcodes.ASM9, mv) {
                @Override
                public void visitCode() {
                    super.visitCode();
                    super.visitVarInsn(Opcodes.ALOAD, 0);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "beforeBuild", "(Ljava/lang/Object;)V", false);
                }
            };
        });
    }
}
