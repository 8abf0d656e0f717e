package io.apiwarden.clients.huc.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.core.log.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Makes the JDK's http and https URL handlers ({@code sun.net.www.protocol.http.Handler} and its https
 * subclass) hand every connection their {@code openConnection(URL, Proxy)} makes to {@link HucHook#open}:
 * {@code url.openConnection()} and {@code url.openConnection(proxy)} both end there, once per connection.
 *
 * <p>Each {@code return connection;} becomes, in effect:
 * <pre>{@code
 * try {
 *     connection = (URLConnection) Class.forName("io.apiwarden.clients.huc.agent.HucHook", true, systemLoader)
 *             .getMethod("open", URLConnection.class, URL.class, Proxy.class).invoke(null, connection, url, proxy);
 * } catch (Throwable t) {
 *     // the app gets the JDK's connection
 * }
 * return connection;
 * }</pre>
 * Reflection, because the handlers are in {@code java.base}, which cannot link to the agent's classes on the
 * class path; it costs about a microsecond per connection opened, beside the connection's own set-up.
 * No member is added, so handlers loaded before the agent are woven by retransforming them.
 */
final class HucInstrumentation {
    static final String HTTP_HANDLER = "sun/net/www/protocol/http/Handler";
    static final String HTTPS_HANDLER = "sun/net/www/protocol/https/Handler";
    private static final String OPEN = "openConnection";
    private static final String OPEN_DESCRIPTOR = "(Ljava/net/URL;Ljava/net/Proxy;)Ljava/net/URLConnection;";
    private static final String URL_CONNECTION = "java/net/URLConnection";
    /** The slot after {@code this}, the URL and the proxy, the method's only locals. */
    private static final int CONNECTION_SLOT = 3;

    private HucInstrumentation() {}

    static void install(Instrumentation inst) {
        String hook = HucHook.class.getName();
        new HookTransformer(
                        "java.net.HttpURLConnection",
                        Map.of(HTTP_HANDLER, weaving(HTTP_HANDLER, hook), HTTPS_HANDLER, weaving(HTTPS_HANDLER, hook)))
                .install(inst);
    }

    /** The weaving of handler {@code owner}, calling the public static {@code hookClass.open}; tests name a hook of their own. */
    static HookTransformer.Weaving weaving(String owner, String hookClass) {
        return (original, next) -> {
            if (!ofTheShapeWoven(original)) {
                AgentLog.once(
                        AgentLog.Level.WARN,
                        "huc-handler-shape",
                        "this JDK's " + owner.replace('/', '.') + " has no openConnection(URL, Proxy) of the shape"
                                + " the agent weaves; HttpURLConnection calls stay unmanaged",
                        null);
                return next;
            }
            return HookTransformer.rewritingMethods(
                    next,
                    (access, name, descriptor, mv) -> name.equals(OPEN) && descriptor.equals(OPEN_DESCRIPTOR)
                            ? new HandConnectionToHook(mv, owner, hookClass)
                            : mv);
        };
    }

    /**
     * Whether the class has the method with its three locals only and no {@code try}: the inserted frames
     * declare exactly those locals, which another local or a handler of the method's own would contradict.
     */
    static boolean ofTheShapeWoven(ClassReader reader) {
        boolean[] shape = {false, false};
        reader.accept(
                new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public MethodVisitor visitMethod(
                            int access, String name, String desc, String signature, String[] exceptions) {
                        if (!name.equals(OPEN) || !desc.equals(OPEN_DESCRIPTOR)) {
                            return null;
                        }
                        return new MethodVisitor(Opcodes.ASM9) {
                            @Override
                            public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                                shape[1] = true;
                            }

                            @Override
                            public void visitMaxs(int maxStack, int maxLocals) {
                                shape[0] = maxLocals == CONNECTION_SLOT;
                            }
                        };
                    }
                },
                ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return shape[0] && !shape[1];
    }

    /** Rewrites each {@code ARETURN} of {@code openConnection(URL, Proxy)}. */
    private static final class HandConnectionToHook extends MethodVisitor {
        private final Object[] frameLocals;
        private final String hookClass;

        HandConnectionToHook(MethodVisitor next, String owner, String hookClass) {
            super(Opcodes.ASM9, next);
            this.hookClass = hookClass;
            this.frameLocals = new Object[] {owner, "java/net/URL", "java/net/Proxy", URL_CONNECTION};
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
            super.visitTypeInsn(Opcodes.CHECKCAST, URL_CONNECTION);
            super.visitVarInsn(Opcodes.ASTORE, CONNECTION_SLOT);
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
            super.visitLdcInsn("open");
            String[] parameters = {URL_CONNECTION, "java/net/URL", "java/net/Proxy"};
            push(parameters.length);
            super.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Class");
            for (int i = 0; i < parameters.length; i++) {
                super.visitInsn(Opcodes.DUP);
                push(i);
                super.visitLdcInsn(Type.getObjectType(parameters[i]));
                super.visitInsn(Opcodes.AASTORE);
            }
            super.visitMethodInsn(
                    Opcodes.INVOKEVIRTUAL,
                    "java/lang/Class",
                    "getMethod",
                    "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;",
                    false);
            super.visitInsn(Opcodes.ACONST_NULL);
            push(parameters.length);
            super.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
            int[] slots = {CONNECTION_SLOT, 1, 2};
            for (int i = 0; i < slots.length; i++) {
                super.visitInsn(Opcodes.DUP);
                push(i);
                super.visitVarInsn(Opcodes.ALOAD, slots[i]);
                super.visitInsn(Opcodes.AASTORE);
            }
            super.visitMethodInsn(
                    Opcodes.INVOKEVIRTUAL,
                    "java/lang/reflect/Method",
                    "invoke",
                    "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
                    false);
            super.visitTypeInsn(Opcodes.CHECKCAST, URL_CONNECTION);
            super.visitVarInsn(Opcodes.ASTORE, CONNECTION_SLOT);
            super.visitLabel(tryEnd);
            super.visitJumpInsn(Opcodes.GOTO, done);
            super.visitLabel(handler);
            super.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 1, new Object[] {"java/lang/Throwable"});
            super.visitInsn(Opcodes.POP);
            super.visitLabel(done);
            super.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 0, new Object[0]);
            super.visitVarInsn(Opcodes.ALOAD, CONNECTION_SLOT);
            super.visitInsn(Opcodes.ARETURN);
        }

        private void push(int small) {
            super.visitInsn(Opcodes.ICONST_0 + small);
        }
    }
}
