package io.apiwarden.unmanaged;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Calls a public no-argument method of an app library's object, found once per class. The method is
 * looked up where it is declared public in a public type (an interface, say): the object's own class
 * may be package-private, and a method found on it could not be invoked from here.
 */
final class PublicGetter {
    private final String name;
    private final ClassValue<Method> byClass = new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> type) {
            return find(type);
        }
    };

    PublicGetter(String name) {
        this.name = name;
    }

    /** The method's result on {@code target}; null for a null target. */
    Object get(Object target) throws ReflectiveOperationException {
        if (target == null) {
            return null;
        }
        Method method = byClass.get(target.getClass());
        if (method == null) {
            throw new NoSuchMethodException(target.getClass().getName() + "." + name + "() is not public");
        }
        return method.invoke(target);
    }

    private Method find(Class<?> type) {
        if (type == null) {
            return null;
        }
        if (Modifier.isPublic(type.getModifiers())) {
            try {
                Method m = type.getMethod(name);
                if (Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
                    return m;
                }
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
        for (Class<?> implemented : type.getInterfaces()) {
            Method m = find(implemented);
            if (m != null) {
                return m;
            }
        }
        return find(type.getSuperclass());
    }
}
