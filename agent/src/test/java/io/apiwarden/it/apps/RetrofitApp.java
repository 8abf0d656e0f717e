package io.apiwarden.it.apps;

import okhttp3.ResponseBody;
import retrofit2.Response;
import retrofit2.Retrofit;
import retrofit2.http.GET;

/** A Retrofit interface on OkHttp, with no auth code. Arg: the API base URL ending in '/'. */
public final class RetrofitApp {
    /** The app's view of the API. */
    interface UserApi {
        @GET("user")
        retrofit2.Call<ResponseBody> user();
    }

    private RetrofitApp() {}

    public static void main(String[] args) throws Exception {
        UserApi api = new Retrofit.Builder().baseUrl(args[0]).build().create(UserApi.class);
        Response<ResponseBody> response = api.user().execute();
        try (ResponseBody body = response.isSuccessful() ? response.body() : response.errorBody()) {
            System.out.println("STATUS " + response.code() + " " + body.string());
        }
        System.exit(0);
    }
}
