package io.apiwarden.clients.apache4.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.agent.LinkedWeaving;
import java.util.Map;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Puts the agent into Apache HttpClient 4 (4.3 to 4.5): every client with an exec chain is built by
 * {@code HttpClientBuilder.build()} ({@code HttpClients.createDefault()}, {@code createSystem()},
 * {@code custom().build()}, Spring's {@code HttpComponentsClientHttpRequestFactory}). {@code build()}
 * puts the chain together from the bottom up and hands its protocol step to the protected
 * {@code decorateProtocolExec} before it adds the retry and redirect steps; what that call returns now
 * goes through {@code Apache4Hook.decorateProtocolExec(chain, this)}, which puts the agent's step on top.
 * Weaving the call in {@code build()}, not the method, keeps the agent's step there when an app's builder
 * overrides the method. {@code HttpClients.createMinimal()} has no such chain and is left alone.
 *
 * <p>The inserted code has no branch, so the method's stack map frames stay as they were.
 */
final class Apache4Instrumentation {
    static final String BUILDER = "org/apache/http/impl/client/HttpClientBuilder";
    private static final String CHAIN = "org/apache/http/impl/execchain/ClientExecChain";
    private static final String DECORATE_DESCRIPTOR = "(L" + CHAIN + ";)L" + CHAIN + ";";
    private static final String HOOK = Type.getInternalName(Apache4Hook.class);

    private Apache4Instrumentation() {}

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        return Map.of(BUILDER, buildWeaving());
    }

    /** In {@code build()}: {@code decorateProtocolExec(chain)} becomes {@code (ClientExecChain) Apache4Hook.decorateProtocolExec(decorateProtocolExec(chain), this)}. */
    private static HookTransformer.Weaving buildWeaving() {
        return new LinkedWeaving(Apache4Hook.class, (access, name, desc, mv) -> {
            if ((access & Opcodes.ACC_STATIC) != 0 || !name.equals("build") || !desc.startsWith("()")) {
                return mv;
            }
            return new MethodVisitor(Opcodes.ASM9, mv) {
                @Override
                public void visitMethodInsn(
                        int opcode, String owner, String method, String descriptor, boolean isInterface) {
                    super.visitMethodInsn(opcode, owner, method, descriptor, isInterface);
                    if (opcode == Opcodes.INVOKEVIRTUAL
                            && owner.equals(BUILDER)
                            && method.equals("decorateProtocolExec")
                            && descriptor.equals(DECORATE_DESCRIPTOR)) {
                        super.visitVarInsn(Opcodes.ALOAD, 0);
                        super.visitMethodInsn(
                                Opcodes.INVOKESTATIC,
                                HOOK,
                                "decorateProtocolExec",
                                "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                                false);
                        super.visitTypeInsn(Opcodes.CHECKCAST, CHAIN);
                    }
                }
            };
        });
    }
}
