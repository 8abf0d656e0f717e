package io.apiwarden.clients.micronaut.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.agent.LinkedWeaving;
import java.util.Map;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Puts the agent's filter into Micronaut's HTTP client 4. Every request of a {@code DefaultHttpClient} ({@code
 * exchange}, {@code retrieve}, the streaming faces, {@code proxy}, the declarative clients) and each redirect hop
 * Micronaut follows runs the filters {@code sendRequestWithRedirects} resolves for it. Right after that
 * resolution (the one call to {@code HttpClientFilterResolver.resolveFilters} in the method) the woven code is
 *
 * <pre>{@code
 * filters = MicronautHook.filters(filters, this, propagatedContext, request);
 * }</pre>
 *
 * which adds the agent's filter for a request to the API or a hop of an attempt. The inserted code has no branch,
 * so the method's frames stay as they were.
 */
final class MicronautInstrumentation {
    static final String CLIENT = "io/micronaut/http/client/netty/DefaultHttpClient";
    private static final String HOOK = Type.getInternalName(MicronautHook.class);
    /** The overload with the preferred scheduler: the other delegates to it. */
    private static final String SEND_PREFIX =
            "(Lio/micronaut/core/propagation/PropagatedContext;Ljava/util/concurrent/atomic/AtomicReference;"
                    + "Lio/micronaut/http/client/netty/BlockHint;Lio/micronaut/http/MutableHttpRequest;";
    /** Its locals: this, the propagated context, the scheduler, the block hint, the request. */
    private static final int CONTEXT_SLOT = 1;

    private static final int REQUEST_SLOT = 4;

    private MicronautInstrumentation() {}

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        return Map.of(CLIENT, clientWeaving());
    }

    private static HookTransformer.Weaving clientWeaving() {
        return new LinkedWeaving(MicronautHook.class, (access, name, descriptor, mv) -> {
            if ((access & Opcodes.ACC_STATIC) == 0
                    && name.equals("sendRequestWithRedirects")
                    && descriptor.startsWith(SEND_PREFIX)) {
                return new AddFilter(mv);
            }
            return mv;
        });
    }

    /** After {@code resolveFilters(...)} returns its list: the hook's list in its place. */
    private static final class AddFilter extends MethodVisitor {
        AddFilter(MethodVisitor next) {
            super(Opcodes.ASM9, next);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            if (name.equals("resolveFilters") && descriptor.endsWith(")Ljava/util/List;")) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitVarInsn(Opcodes.ALOAD, CONTEXT_SLOT);
                super.visitVarInsn(Opcodes.ALOAD, REQUEST_SLOT);
                super.visitMethodInsn(
                        Opcodes.INVOKESTATIC,
                        HOOK,
                        "filters",
                        "(Ljava/util/List;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/util/List;",
                        false);
            }
        }
    }
}
