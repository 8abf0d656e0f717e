package io.apiwarden.clients.apache5.agent;

import io.apiwarden.agent.HookTransformer;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
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

    static void install(Instrumentation inst) {
        BuildWeaving async = new BuildWeaving("()Lorg/apache/hc/client5/http/impl/async/CloseableHttpAsyncClient;");
        new HookTransformer(
                        "Apache HttpClient 5",
                        Map.of(
                                "org/apache/hc/client5/http/impl/classic/HttpClientBuilder",
                                new BuildWeaving("()Lorg/apache/hc/client5/http/impl/classic/CloseableHttpClient;"),
                                "org/apache/hc/client5/http/impl/async/HttpAsyncClientBuilder",
                                async,
                                "org/apache/hc/client5/http/impl/async/H2AsyncClientBuilder",
                                async))
                .install(inst);
    }

    /** {@code build()}: first of all, {@code ApacheHttpHook.beforeBuild(this)}. */
    private static final class BuildWeaving implements HookTransformer.Weaving {
        private final String descriptor;

        BuildWeaving(String descriptor) {
            this.descriptor = descriptor;
        }

        @Override
        public boolean linksToAgent() {
            return true;
        }

        @Override
        public boolean canWeave(ClassLoader loader) {
            return HookTransformer.linksTo(loader, ApacheHttpHook.class);
        }

        @Override
        public ClassVisitor visitor(ClassReader original, ClassVisitor next) {
            return HookTransformer.rewritingMethods(next, (access, name, desc, mv) -> {
                if ((access & Opcodes.ACC_STATIC) != 0 || !name.equals("build") || !desc.equals(descriptor)) {
                    return mv;
                }
                return new MethodVisitor(Opcodes.ASM9, mv) {
                    @Override
                    public void visitCode() {
                        super.visitCode();
                        super.visitVarInsn(Opcodes.ALOAD, 0);
                        super.visitMethodInsn(
                                Opcodes.INVOKESTATIC, HOOK, "beforeBuild", "(Ljava/lang/Object;)V", false);
                    }
                };
            });
        }
    }
}
