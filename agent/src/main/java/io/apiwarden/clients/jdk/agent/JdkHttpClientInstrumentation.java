package io.apiwarden.clients.jdk.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.core.log.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.Arrays;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Makes {@code jdk.internal.net.http.HttpClientBuilderImpl.build()}, through which every JDK client is
 * built ({@code HttpClient.newHttpClient()} too), hand its result to {@link JdkHttpClientHook#wrap}.
 *
 * <p>Each {@code return client;} becomes, in effect:
 * <pre>{@code
 * try {
 *     client = (HttpClient) Class.forName("io.apiwarden.clients.jdk.agent.JdkHttpClientHook", true, systemLoader)
 *             .getMethod("wrap", HttpClient.class).invoke(null, client);
 * } catch (Throwable t) {
 *     // the app gets the client the JDK built
 * }
 * return client;
 * }</pre>
 * Reflection, because the code runs inside the {@code java.net.http} module, which cannot link to the
 * agent's classes on the class path; a client is built rarely, so its cost does not matter.
 */
final class JdkHttpClientInstrumentation {
    static final String BUILDER_CLASS = "jdk/internal/net/http/HttpClientBuilderImpl";
    private static final String BUILD = "build";
    private static final String BUILD_DESCRIPTOR = "()Ljava/net/http/HttpClient;";
    private static final String HTTP_CLIENT = "java/net/http/HttpClient";

    private JdkHttpClientInstrumentation() {}

    static void install(Instrumentation inst) {
        new HookTransformer(
                        "java.net.http.HttpClient",
                        Map.of(BUILDER_CLASS, weaving(JdkHttpClientHook.class.getName(), "wrap")))
                .install(inst);
    }

    /**
     * The weaving of a class's {@code build()} that returns an {@code HttpClient}, calling the public
     * static {@code hookClass.hookMethod(HttpClient)}; tests name a hook of their own.
     */
    static HookTransformer.Weaving weaving(String hookClass, String hookMethod) {
        return (original, next) -> {
            int maxLocals = maxLocalsOf(original, BUILD, BUILD_DESCRIPTOR);
            if (maxLocals < 0) {
                AgentLog.once(
                        AgentLog.Level.WARN,
                        "jdk-builder-shape",
                        "this JDK's HttpClient builder has no build() "
                                + "of the shape the agent weaves (a return outside any try); JDK HttpClient calls stay unmanaged",
                        null);
            }
            return HookTransformer.rewritingMethods(
                    next,
                    (access, name, descriptor, mv) ->
                            maxLocals < 0 || !name.equals(BUILD) || !descriptor.equals(BUILD_DESCRIPTOR)
                                    ? mv
                                    : new WrapReturnedClient(mv, maxLocals, hookClass, hookMethod));
        };
    }

    /** Rewrites each {@code ARETURN}; the client is kept in a new local after all of the method's own. */
    private static final class WrapReturnedClient extends MethodVisitor {
        private final int client;
        private final Object[] frameLocals;
        private final String hookClass;
        private final String hookMethod;

        WrapReturnedClient(MethodVisitor next, int firstFreeLocal, String hookClass, String hookMethod) {
            super(Opcodes.ASM9, next);
            this.client = firstFreeLocal;
            this.hookClass = hookClass;
            this.hookMethod = hookMethod;
            // The frames of the inserted code declare the method's own locals as TOP (whatever they
            // hold, it is not used again before the return) and the client as an HttpClient.
            this.frameLocals = new Object[firstFreeLocal + 1];
            Arrays.fill(frameLocals, Opcodes.TOP);
            frameLocals[firstFreeLocal] = HTTP_CLIENT;
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode != Opcodes.ARETURN) {
                super.visitInsn(opcode);
                return;
            }
            Label tryStart = new Label();
            Label tryEnd = new Label();
            Label handler = new Label();
            Label done = new Label();
            super.visitTypeInsn(Opcodes.CHECKCAST, HTTP_CLIENT);
            super.visitVarInsn(Opcodes.ASTORE, client);
            super.visitTryCatchBlock(tryStart, tryEnd, handler, "java/lang/Throwable");
            super.visitLabel(tryStart);
            super.visitLdcInsn(hookClass);
            super.visitInsn(Opcodes.ICONST_1);
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC,
                    "java/lang/ClassLoader",
                    "getSystemClassLoader",
                    "()Ljava/lang/ClassLoader;",
                    false);
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC,
                    "java/lang/Class",
                    "forName",
                    "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;",
                    false);
            super.visitLdcInsn(hookMethod);
            super.visitInsn(Opcodes.ICONST_1);
            super.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Class");
            super.visitInsn(Opcodes.DUP);
            super.visitInsn(Opcodes.ICONST_0);
            super.visitLdcInsn(Type.getObjectType(HTTP_CLIENT));
            super.visitInsn(Opcodes.AASTORE);
            super.visitMethodInsn(
                    Opcodes.INVOKEVIRTUAL,
                    "java/lang/Class",
                    "getMethod",
                    "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;",
                    false);
            super.visitInsn(Opcodes.ACONST_NULL);
            super.visitInsn(Opcodes.ICONST_1);
            super.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
            super.visitInsn(Opcodes.DUP);
            super.visitInsn(Opcodes.ICONST_0);
            super.visitVarInsn(Opcodes.ALOAD, client);
            super.visitInsn(Opcodes.AASTORE);
            super.visitMethodInsn(
                    Opcodes.INVOKEVIRTUAL,
                    "java/lang/reflect/Method",
                    "invoke",
                    "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
                    false);
            super.visitTypeInsn(Opcodes.CHECKCAST, HTTP_CLIENT);
            super.visitVarInsn(Opcodes.ASTORE, client);
            super.visitLabel(tryEnd);
            super.visitJumpInsn(Opcodes.GOTO, done);
            super.visitLabel(handler);
            super.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 1, new Object[] {"java/lang/Throwable"});
            super.visitInsn(Opcodes.POP);
            super.visitLabel(done);
            super.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 0, new Object[0]);
            super.visitVarInsn(Opcodes.ALOAD, client);
            super.visitInsn(Opcodes.ARETURN);
        }
    }

    /**
     * The number of local slots the method uses; -1 when the class has no such method, or when it has a
     * {@code try} of its own: the inserted frames declare the method's locals unused, which a handler of
     * the method's own that covered a return would contradict. The JDK's is {@code return HttpClientImpl.create(this);}.
     */
    static int maxLocalsOf(ClassReader reader, String method, String descriptor) {
        int[] maxLocals = {-1};
        boolean[] hasTry = {false};
        reader.accept(
                new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public MethodVisitor visitMethod(
                            int access, String name, String desc, String signature, String[] exceptions) {
                        if (!name.equals(method) || !desc.equals(descriptor)) {
                            return null;
                        }
                        return new MethodVisitor(Opcodes.ASM9) {
                            @Override
                            public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                                hasTry[0] = true;
                            }

                            @Override
                            public void visitMaxs(int maxStack, int locals) {
                                maxLocals[0] = locals;
                            }
                        };
                    }
                },
                ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return hasTry[0] ? -1 : maxLocals[0];
    }
}
