package io.apiwarden.springit;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot app with no auth code, packaged as a fat jar and started with the agent by the integration
 * test. It calls the API through the {@code RestClient}, {@code RestTemplate} and {@code WebClient} that
 * Boot configures (which client library is under each is Boot's choice, or its settings'), and on demand through
 * {@code new RestTemplate()} and a Spring Cloud OpenFeign client ({@link CallScenes}), prints one JSON
 * line per call and exits. {@code --api.origin=URL} says where the API is.
 */
@SpringBootApplication
@EnableFeignClients
public class SpringClientsApp {
    public static void main(String[] args) throws Exception {
        try (ConfigurableApplicationContext context = SpringApplication.run(SpringClientsApp.class, args)) {
            context.getBean(CallScenes.class).playAll();
        }
    }
}
