/*
 * plainhttp.c - a plain HTTP server for tests/real.sh: not herd serve, the
 * normal target of herd drive.  Every path outside /_herd/ answers 200
 * "ok"; a path under /_herd/ answers as MODE says:
 *   empty404   404 with an empty body
 *   line404    404 with a one-line body
 *   empty405   405 with an empty body
 *   empty200   200 with an empty body
 *   close      the connection closed without an answer
 * It listens on 127.0.0.1 (any free port), prints http://127.0.0.1:PORT/
 * on stdout, and stops on SIGTERM or SIGINT or after 120 s.
 *
 *   build/tests/plainhttp MODE
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

static const char *mode;

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, const char *body)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    enum MHD_Result rc = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **req_cls)
{
    (void)cls;
    (void)method;
    (void)version;
    (void)upload;
    if (!*req_cls) { /* the headers: wait for a body, if any */
        *req_cls = conn;
        return MHD_YES;
    }
    if (*upload_size) {
        *upload_size = 0;
        return MHD_YES;
    }
    if (strncmp(url, "/_herd/", 7) != 0)
        return reply(conn, 200, "ok\n");
    if (!strcmp(mode, "empty404"))
        return reply(conn, 404, "");
    if (!strcmp(mode, "line404"))
        return reply(conn, 404, "not found\n");
    if (!strcmp(mode, "empty405"))
        return reply(conn, 405, "");
    if (!strcmp(mode, "empty200"))
        return reply(conn, 200, "");
    return MHD_NO; /* close */
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"empty404", "line404", "empty405", "empty200", "close"};
    int known = 0;
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++)
        known |= !strcmp(argv[1], modes[i]);
    if (!known) {
        fprintf(stderr, "usage: plainhttp empty404|line404|empty405|empty200|close\n");
        return 2;
    }
    mode = argv[1];
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, on_request, NULL,
                                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "plainhttp: cannot start\n");
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    printf("http://127.0.0.1:%u/\n", info ? (unsigned)info->port : 0u);
    fflush(stdout);
    struct timespec limit = {.tv_sec = 120, .tv_nsec = 0};
    sigtimedwait(&sigs, NULL, &limit);
    MHD_stop_daemon(d);
    return 0;
}
