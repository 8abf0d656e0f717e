package io.apiwarden.it.apps;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads OkHttp from a child class loader, as a Spring Boot fat jar or a servlet container does:
 * OkHttp is not on this JVM's class path at all. Args: the folder of OkHttp jars, the URL.
 */
public final class ChildLoaderOkHttpApp {
    private ChildLoaderOkHttpApp() {}

    public static void main(String[] args) throws Exception {
        List<URL> jars = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Paths.get(args[0]), "*.jar")) {
            for (Path jar : dir) {
                jars.add(jar.toUri().toURL());
            }
        }
        try (URLClassLoader child =
                new URLClassLoader(jars.toArray(new URL[0]), ChildLoaderOkHttpApp.class.getClassLoader())) {
            Class<?> clientType = child.loadClass("okhttp3.OkHttpClient");
            Object client = clientType.getConstructor().newInstance();
            Object builder =
                    child.loadClass("okhttp3.Request$Builder").getConstructor().newInstance();
            builder = builder.getClass().getMethod("url", String.class).invoke(builder, args[1]);
            Object request = builder.getClass().getMethod("build").invoke(builder);
            Object call = clientType
                    .getMethod("newCall", child.loadClass("okhttp3.Request"))
                    .invoke(client, request);
            Object response =
                    child.loadClass("okhttp3.Call").getMethod("execute").invoke(call);
            Class<?> responseType = child.loadClass("okhttp3.Response");
            Object body = responseType.getMethod("body").invoke(response);
            String text = (String)
                    child.loadClass("okhttp3.ResponseBody").getMethod("string").invoke(body);
            System.out.println("LOADER " + (clientType.getClassLoader() == child));
            System.out.println("STATUS " + responseType.getMethod("code").invoke(response) + " " + text);
            Object dispatcher = clientType.getMethod("dispatcher").invoke(client);
            ((java.util.concurrent.ExecutorService)
                            dispatcher.getClass().getMethod("executorService").invoke(dispatcher))
                    .shutdown();
        }
    }
}
