/*
 * presets.c - herd policy library: the retry defaults client libraries
 * ship, as data.  Each entry was read from the library's own source at the
 * version given (repository, file, tag or commit); `herd presets` prints
 * the table and doc/presets.md ("Model your stack") cites it.
 *
 * A field left out is zero, which is herd's default: see hp_policy.  Masks
 * are sets of hp_class bits.  "No cap" is a cap of 1e9 s (herd's largest
 * cap_s).
 */
#include "herdpolicy.h"

#include <stddef.h>
#include <string.h>

#define BIT(c) (1u << HP_CLASS_##c)
/* Every class a framework that retries "any exception" retries. */
#define ALL_FAILURES                                                                                \
    (BIT(RATE_LIMITED) | BIT(SERVER) | BIT(NOT_IMPLEMENTED) | BIT(BAD_REQUEST) | BIT(AUTH) |        \
     BIT(NOT_FOUND) | BIT(TIMEOUT) | BIT(CONNECTION) | BIT(UNKNOWN) | BIT(CONFLICT) |                \
     BIT(REQUEST_TIMEOUT) | BIT(OVERLOADED))
#define FOUR_XX (BIT(NOT_IMPLEMENTED) | BIT(BAD_REQUEST) | BIT(AUTH) | BIT(NOT_FOUND))
#define NO_CAP 1e9
#define AWS_RETRIED (BIT(RATE_LIMITED) | BIT(SERVER) | BIT(TIMEOUT) | BIT(CONNECTION))

/* The Stainless-generated SDKs (openai-python, openai-node, anthropic-python):
 * 3 attempts (max_retries 2), min(0.5 * 2^n, 8) * (1 - 0.25 u); 408, 409,
 * 429, >= 500, timeouts and connection errors; retry-after-ms, then
 * retry-after, used as is when 0 < RA <= ra_max. */
#define STAINLESS_SDK(ra_max, above)                                                                \
    {.strategy = HP_EXPONENTIAL, .base_s = 0.5, .cap_s = 8.0, .max_attempts = 3,                    \
     .unknown = HP_UNKNOWN_FAIL, .on_timeout = HP_TIMEOUT_ALWAYS, .jitter = HP_JITTER_PROPORTIONAL, \
     .jitter_f = 0.25, .retry_also = BIT(NOT_IMPLEMENTED), .ra_mode = HP_RA_INSTEAD,                \
     .retry_after_max_s = (ra_max), .ra_above = (above), .ra_ms = true}

#define STAINLESS_RETRIED "408, 409, 429, every 5xx herd classifies (500-504, 529), timeouts, connection errors"
#define STAINLESS_RA                                                                                \
    "retry-after-ms, then retry-after (seconds or date): used instead of the backoff when 0 < RA <= 60 s, " \
    "else the backoff"

static const hp_library_preset presets[] = {
    {"openai_python", "openai-python < 2.52 (also Azure, LangChain ChatOpenAI: max_retries passed through)",
     STAINLESS_SDK(60.0, HP_RA_ABOVE_BACKOFF), false, {0}, STAINLESS_RETRIED, STAINLESS_RA,
     "openai/openai-python", "src/openai/_base_client.py, src/openai/_constants.py", "v2.51.0 (3844843c)",
     "openai-node 7.5.0 (src/client.ts) is the same but also honours RA = 0"},
    {"openai_python_2_52", "openai-python >= 2.52",
     STAINLESS_SDK(120.0, HP_RA_ABOVE_STOP), false, {0}, STAINLESS_RETRIED,
     "retry-after-ms, then retry-after: instead of the backoff when 0 < RA <= 120 s; a longer RA stops retrying",
     "openai/openai-python", "src/openai/_base_client.py, src/openai/_constants.py (MAX_RETRY_AFTER_DELAY)",
     "v2.52.0 (7fa79464, #3555), unchanged in v3.3.1", ""},
    {"anthropic_python", "anthropic-sdk-python", STAINLESS_SDK(60.0, HP_RA_ABOVE_BACKOFF), false, {0},
     STAINLESS_RETRIED, STAINLESS_RA, "anthropics/anthropic-sdk-python",
     "src/anthropic/_base_client.py, src/anthropic/_constants.py", "v0.121.0 (009b0353)", ""},
    {"langchain_with_retry", "LangChain Runnable.with_retry() (tenacity wait_exponential_jitter())",
     {.strategy = HP_EXPONENTIAL, .base_s = 1.0, .cap_s = NO_CAP, .max_attempts = 3,
      .on_timeout = HP_TIMEOUT_ALWAYS, .jitter = HP_JITTER_ADDITIVE, .jitter_f = 1.0, .jitter_before_cap = true,
      .retry_also = FOUR_XX, .ra_mode = HP_RA_IGNORE},
     false, {0}, "any exception (retry_if_exception_type((Exception,))): 4xx too", "no",
     "langchain-ai/langchain, jd/tenacity",
     "libs/core/langchain_core/runnables/retry.py; tenacity/wait.py (wait_exponential_jitter: initial 1, "
     "exp_base 2, jitter 1, max MAX_WAIT)",
     "02b36f77", ""},
    {"langgraph", "LangGraph RetryPolicy()",
     {.strategy = HP_EXPONENTIAL, .base_s = 0.5, .cap_s = 128.0, .max_attempts = 3,
      .on_timeout = HP_TIMEOUT_ALWAYS, .jitter = HP_JITTER_ADDITIVE, .jitter_f = 1.0, .retry_also = FOUR_XX,
      .ra_mode = HP_RA_IGNORE},
     false, {0}, "default_retry_on: every exception but programming errors, so the SDK's 4xx errors too",
     "no", "langchain-ai/langgraph",
     "libs/langgraph/langgraph/types.py, pregel/_retry.py, _internal/_retry.py", "1.2.11 (f09cfe8f)",
     "the jitter U(0, 1) s is added after the cap"},
    {"llamaindex_openai", "LlamaIndex OpenAI LLM: a tenacity loop around the openai SDK, both max_retries = 3",
     {.strategy = HP_EXPONENTIAL, .base_s = 1.0, .cap_s = 20.0, .max_attempts = 3,
      .unknown = HP_UNKNOWN_FAIL, .on_timeout = HP_TIMEOUT_ALWAYS, .jitter = HP_JITTER_FLOOR, .jitter_f = 1.0,
      .retry_also = BIT(NOT_IMPLEMENTED),
      .retry_only = BIT(RATE_LIMITED) | BIT(SERVER) | BIT(NOT_IMPLEMENTED) | BIT(OVERLOADED) | BIT(TIMEOUT) |
                    BIT(CONNECTION),
      .budget_s = 60.0, .budget_mode = HP_BUDGET_AT_FAILURE, .ra_mode = HP_RA_IGNORE},
     true,
     {.strategy = HP_EXPONENTIAL, .base_s = 0.5, .cap_s = 8.0, .max_attempts = 4, .unknown = HP_UNKNOWN_FAIL,
      .on_timeout = HP_TIMEOUT_ALWAYS, .jitter = HP_JITTER_PROPORTIONAL, .jitter_f = 0.25,
      .retry_also = BIT(NOT_IMPLEMENTED), .ra_mode = HP_RA_INSTEAD, .retry_after_max_s = 60.0,
      .ra_above = HP_RA_ABOVE_BACKOFF, .ra_ms = true},
     "outer: APIConnectionError, APITimeoutError, RateLimitError, InternalServerError (5xx); inner: the SDK's",
     "outer no, inner the SDK's", "run-llama/llama_index",
     "llama-index-integrations/llms/llama-index-llms-openai/llama_index/llms/openai/base.py (max_retries 3, "
     "passed to the SDK client too), utils.py (create_retry_decorator: wait_random_exponential(min=1, max=20), "
     "stop_after_attempt(3) or stop_after_delay(60))",
     "base.py 020535ab, utils.py 01509f95",
     "two layers: 3 outer x 4 SDK attempts = 12 at worst; stop_after_delay(60) is checked when an attempt fails"},
    {"google_genai", "google-genai with HttpRetryOptions()",
     {.strategy = HP_EXPONENTIAL, .base_s = 1.0, .cap_s = 60.0, .max_attempts = 5,
      .on_timeout = HP_TIMEOUT_ALWAYS, .jitter = HP_JITTER_ADDITIVE, .jitter_f = 1.0, .jitter_before_cap = true,
      .retry_only = BIT(REQUEST_TIMEOUT) | BIT(RATE_LIMITED) | BIT(SERVER) | BIT(TIMEOUT) | BIT(CONNECTION),
      .ra_mode = HP_RA_IGNORE},
     false, {0}, "408, 429, 500, 502, 503, 504, httpx timeouts and connect errors", "no",
     "googleapis/python-genai", "google/genai/_api_client.py (retry_args)", "v2.19.0 (66807187)",
     "without retry_options the client makes 1 attempt"},
    {"cohere", "cohere-python",
     {.strategy = HP_EXPONENTIAL, .base_s = 1.0, .cap_s = 60.0, .max_attempts = 3, .unknown = HP_UNKNOWN_FAIL,
      .on_timeout = HP_TIMEOUT_NEVER, .jitter = HP_JITTER_SYMMETRIC, .jitter_f = 0.1,
      .retry_also = BIT(NOT_IMPLEMENTED), .retry_only = ALL_FAILURES & ~BIT(TIMEOUT), .ra_mode = HP_RA_INSTEAD,
      .retry_after_max_s = 60.0, .ra_above = HP_RA_ABOVE_CLAMP, .ra_reset = true, .reset_jitter_f = 0.2},
     false, {0}, "408, 409, 429, >= 500, connect errors (httpx.ConnectError, RemoteProtocolError); not timeouts",
     "retry-after > 0: min(RA, 60) s; else X-RateLimit-Reset: min(reset, 60) x U(1, 1.2)",
     "cohere-ai/cohere-python", "src/cohere/core/http_client.py", "7.0.9 (bc495daa)",
     "its retry-after-ms branch compares a string with 0 and always falls through, so only retry-after counts"},
    {"urllib3", "urllib3 Retry(3, backoff_factor=0.5)",
     {.strategy = HP_EXPONENTIAL, .base_s = 0.5, .cap_s = 120.0, .max_attempts = 4, .first_retry_zero = true,
      .retry_only = BIT(CONNECTION) | BIT(TIMEOUT), .retry_with_ra = BIT(RATE_LIMITED) | BIT(SERVER),
      .ra_mode = HP_RA_INSTEAD, .retry_after_max_s = 21600.0, .ra_above = HP_RA_ABOVE_CLAMP},
     false, {0},
     "connection errors; read errors (timeouts) of idempotent methods; 413/429/503 only with a Retry-After",
     "used instead of the backoff, clamped to retry_after_max (6 h)", "urllib3/urllib3",
     "src/urllib3/util/retry.py", "2.7.0+30 (6a8536b6)",
     "Retry.DEFAULT is Retry(3) with backoff_factor 0 (no sleep); the preset takes 0.5: set base_s for yours"},
    {"go_retryablehttp", "hashicorp/go-retryablehttp DefaultRetryPolicy, DefaultBackoff",
     {.strategy = HP_EXPONENTIAL, .base_s = 1.0, .cap_s = 30.0, .max_attempts = 5, .unknown = HP_UNKNOWN_FAIL,
      .on_timeout = HP_TIMEOUT_ALWAYS, .retry_only = ALL_FAILURES & ~FOUR_XX & ~BIT(CONFLICT) & ~BIT(REQUEST_TIMEOUT),
      .ra_mode = HP_RA_INSTEAD, .retry_after_max_s = NO_CAP, .ra_above = HP_RA_ABOVE_CLAMP},
     false, {0}, "transport errors, 429, 5xx except 501", "on 429 and 503: used instead, uncapped",
     "hashicorp/go-retryablehttp", "client.go", "v0.7.8+17 (fd004584)", ""},
    {"aws_legacy", "AWS SDK legacy retry mode (botocore default)",
     {.strategy = HP_FULL_JITTER, .base_s = 1.0, .cap_s = NO_CAP, .max_attempts = 5,
      .on_timeout = HP_TIMEOUT_ALWAYS, .unknown = HP_UNKNOWN_FAIL, .ra_mode = HP_RA_IGNORE, .retry_only = AWS_RETRIED},
     false, {0}, "connection errors, 500, 503, 509, throttling codes, 429", "no", "boto/botocore",
     "botocore/retryhandler.py (delay_exponential: base 'rand', growth_factor 2), botocore/data/_retry.json",
     "1.43.67 (0e6e2404)", "sleep U(0, 1) x 2^n, uncapped"},
    {"aws_standard", "AWS SDK standard retry mode",
     {.strategy = HP_FULL_JITTER, .base_s = 1.0, .cap_s = 20.0, .max_attempts = 3,
      .on_timeout = HP_TIMEOUT_ALWAYS, .unknown = HP_UNKNOWN_FAIL, .ra_mode = HP_RA_IGNORE, .retry_only = AWS_RETRIED},
     false, {0}, "transient (500, 502, 503, 504, connection, timeouts), throttling (429)", "no",
     "boto/botocore", "botocore/retries/standard.py (ExponentialBackoff: rand() x min(2^n, 20))",
     "1.43.67 (0e6e2404)", "the retry quota is [limits] limiter = aws_quota"},
    {"aws_adaptive", "AWS SDK adaptive retry mode: standard + a client-side rate limiter",
     {.strategy = HP_FULL_JITTER, .base_s = 1.0, .cap_s = 20.0, .max_attempts = 3,
      .on_timeout = HP_TIMEOUT_ALWAYS, .unknown = HP_UNKNOWN_FAIL, .ra_mode = HP_RA_IGNORE,
      .retry_only = AWS_RETRIED, .adaptive_rate = true},
     false, {0}, "as aws_standard", "no", "boto/botocore",
     "botocore/retries/adaptive.py, bucket.py, throttling.py, standard.py", "1.43.67 (0e6e2404)",
     "the limiter (token bucket, CUBIC send rate) is shared by all clients of a run, as by one SDK client "
     "(one per instance of N clients with [limits] clients_per_instance)"},
    {"grpc", "gRPC retry policy (gRFC A6), the example config: maxAttempts 4, 0.1 s, 1 s, x2, UNAVAILABLE",
     {.strategy = HP_EXPONENTIAL, .base_s = 0.1, .cap_s = 1.0, .max_attempts = 4, .unknown = HP_UNKNOWN_FAIL,
      .on_timeout = HP_TIMEOUT_NEVER, .jitter = HP_JITTER_SYMMETRIC, .jitter_f = 0.2,
      .retry_only = BIT(SERVER) | BIT(CONNECTION), .no_retry_status = {500, 502, 504, 0},
      .ra_mode = HP_RA_INSTEAD, .retry_after_max_s = NO_CAP, .ra_above = HP_RA_ABOVE_CLAMP, .ra_ms = true},
     false, {0}, "the configured codes (UNAVAILABLE: 503 and connection errors here)",
     "grpc-retry-pushback-ms, exactly (herd: the retry-after-ms header)", "grpc/proposal",
     "A6-client-retries.md", "1fd061ad",
     "maxAttempts above 5 are treated as 5; a negative pushback stops retrying (in herd: [server] "
     "overload_signal with [layer] obey_overload); after a pushback gRPC restarts its backoff at "
     "initialBackoff (herd does not)"},
    {"envoy", "Envoy route retry policy (retry_on: 5xx), default num_retries 1",
     {.strategy = HP_FULL_JITTER, .base_s = 0.025, .cap_s = 0.25, .max_attempts = 2, .unknown = HP_UNKNOWN_FAIL,
      .on_timeout = HP_TIMEOUT_ALWAYS, .retry_also = BIT(NOT_IMPLEMENTED), .ra_mode = HP_RA_IGNORE,
      .retry_only = BIT(SERVER) | BIT(NOT_IMPLEMENTED) | BIT(OVERLOADED) | BIT(TIMEOUT) | BIT(CONNECTION)},
     false, {0}, "retry_on 5xx: 5xx, resets, connect failures, per-try timeouts",
     "only with rate_limited_retry_back_off configured (not in the preset)", "envoyproxy/envoy",
     "source/common/common/backoff_strategy.cc (JitteredBackOffStrategy); router filter docs "
     "(x-envoy-max-retries: 1 retry by default)",
     "4280ef77", ""},
    {"google_api_core", "Google api-core Retry()",
     {.strategy = HP_FULL_JITTER, .base_s = 1.0, .cap_s = 60.0, .max_attempts = 0, .budget_s = 120.0,
      .unknown = HP_UNKNOWN_FAIL, .on_timeout = HP_TIMEOUT_NEVER,
      .retry_only = BIT(RATE_LIMITED) | BIT(SERVER) | BIT(CONNECTION), .no_retry_status = {502, 504, 0, 0},
      .ra_mode = HP_RA_IGNORE},
     false, {0}, "if_transient_error: 429, 500, 503, connection errors (not 502/504)", "no",
     "googleapis/python-api-core", "google/api_core/retry/retry_base.py", "2.29.1 (bfc66514)",
     "the 120 s deadline includes the sleeps: it stops when now + sleep > deadline (herd: >=)"},
    {"polly_v8", "Polly v8 RetryStrategyOptions()",
     {.strategy = HP_CONSTANT, .base_s = 2.0, .cap_s = 2.0, .max_attempts = 4, .on_timeout = HP_TIMEOUT_ALWAYS,
      .retry_also = FOUR_XX, .ra_mode = HP_RA_IGNORE},
     false, {0}, "every exception but OperationCanceledException (herd: every failure, as if the call throws)",
     "no", "App-vNext/Polly",
     "src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs, RetryConstants.cs, Utils/DefaultPredicates.cs",
     "8.7.0+91 (173d6d1d)", "3 retries, constant 2 s, UseJitter false"},
    {"resilience4j", "resilience4j RetryConfig.ofDefaults()",
     {.strategy = HP_CONSTANT, .base_s = 0.5, .cap_s = 0.5, .max_attempts = 3, .on_timeout = HP_TIMEOUT_ALWAYS,
      .retry_also = FOUR_XX, .ra_mode = HP_RA_IGNORE},
     false, {0}, "every exception (retryExceptions empty)", "no", "resilience4j/resilience4j",
     "resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java", "v2.4.0+16 (af9e7c97)",
     "3 attempts, 500 ms fixed wait"},
};

uint32_t hp_library_preset_count(void)
{
    return (uint32_t)(sizeof presets / sizeof presets[0]);
}

const hp_library_preset *hp_library_preset_at(uint32_t i)
{
    return i < hp_library_preset_count() ? &presets[i] : NULL;
}

const hp_library_preset *hp_library_preset_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (uint32_t i = 0; i < hp_library_preset_count(); i++)
        if (strcmp(presets[i].name, name) == 0)
            return &presets[i];
    return NULL;
}
