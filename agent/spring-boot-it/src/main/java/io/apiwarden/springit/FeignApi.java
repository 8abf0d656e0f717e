package io.apiwarden.springit;

import java.net.URI;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

/**
 * A Spring Cloud OpenFeign client as an app declares one, on Feign's default client (no other Feign client
 * module on the class path, no load balancer): {@code HttpURLConnection}. The URI parameter says where each
 * POST goes (the API, or the fake API's scene paths).
 */
@FeignClient(name = "api", url = "${api.origin}")
interface FeignApi {
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> post(URI url, @RequestBody Object body);
}
