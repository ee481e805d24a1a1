"""Settings, all read from the environment (see README "Environment variables").

Unset ``DATABASE_URL`` means SQLite under ``var/``; unset ``REDIS_URL`` means the in-memory
channel layer and in-process background work. The same code runs both ways.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
import redis
from redis.driver_info import DriverInfo

from fdeplatform.env import envbool, envint, envlist, envstr, secret_key

# Lets admin and DRF generics be subscripted at run time, as the type stubs expect.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(envstr("VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = envbool("DEBUG", False)
SECRET_KEY = secret_key(debug=DEBUG)
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

# Behind HTTPS (the production default) cookies are secure and HSTS is on; script/server
# sets HTTPS=false because it serves plain HTTP on loopback.
HTTPS = envbool("HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # A year, once the site is known to work over HTTPS (Mozilla's recommendation).
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    # Plain-HTTP requests are sent to HTTPS; /healthz stays reachable for probes on the box.
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

INSTALLED_APPS = [
    "whitenoise.runserver_nostatic",
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "fdeplatform.core",
    "fdeplatform.accounts",
    "fdeplatform.cases",
    "fdeplatform.runs",
    "fdeplatform.scoring",
    "fdeplatform.leaderboards",
    "fdeplatform.authoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "fdeplatform.core.security_headers.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "fdeplatform.accounts.login_guard.LoginGuardMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "fdeplatform.urls"
ASGI_APPLICATION = "fdeplatform.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def _database() -> dict[str, Any]:
    url = envstr("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
    config: dict[str, Any] = dict(
        dj_database_url.parse(url, conn_max_age=envint("CONN_MAX_AGE", 0))
    )
    if config["ENGINE"].endswith("sqlite3"):
        # WAL and immediate transactions let the background worker thread write while pages read.
        config["OPTIONS"] = {
            "init_command": "PRAGMA journal_mode=WAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
        # A file, not memory, so test servers started as subprocesses share the test database;
        # one per test process, so two test runs on one machine never share it.
        config["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
    elif config["ENGINE"].endswith("postgresql") and envint("DB_POOL_SIZE", 0) > 0:
        # Opt-in connection pool per process (psycopg_pool): the websocket's database work runs
        # on several threads at once, and opening a connection per question costs more than the
        # question. Opt-in because a thread that ends holding a pooled connection never gives it
        # back: the suite's long-lived test process exhausted a pool of 10 that way.
        # Django requires CONN_MAX_AGE = 0 with a pool.
        config["CONN_MAX_AGE"] = 0
        config.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": envint("DB_POOL_SIZE", 0),
            "timeout": 10,
        }
    return config


DATABASES = {"default": _database()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# E-mail (password reset, sign-up confirmation). EMAIL_BACKEND: "console" (default: mails are
# printed to the server's output), "file" (one file per mail under EMAIL_FILE_PATH), "smtp"
# (EMAIL_HOST and friends), or a dotted backend path.
_EMAIL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
}
_email_backend = envstr("EMAIL_BACKEND") or "console"
EMAIL_BACKEND = _EMAIL_BACKENDS.get(_email_backend, _email_backend)
EMAIL_FILE_PATH = Path(envstr("EMAIL_FILE_PATH") or VAR_DIR / "mail")
EMAIL_HOST = envstr("EMAIL_HOST", "localhost")
EMAIL_PORT = envint("EMAIL_PORT", 587)
EMAIL_HOST_USER = envstr("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = envstr("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = envbool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "FDE Practice <noreply@localhost>")
# Sign-up asks for an e-mail address and the account stays inactive until its link is opened.
SIGNUP_EMAIL_CONFIRMATION = envbool("SIGNUP_EMAIL_CONFIRMATION", False)
# Reset links are valid this long (Django's default is three days).
PASSWORD_RESET_TIMEOUT = envint("PASSWORD_RESET_TIMEOUT_S", 3 * 3600)
# Password-reset and confirmation mails per address (client IP) before further requests get 429.
PASSWORD_RESET_RATE = envstr("PASSWORD_RESET_RATE", "5/15min")

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(envstr("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if envbool("STATIC_MANIFEST", not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = envbool("WHITENOISE_USE_FINDERS", DEBUG)
MEDIA_ROOT = Path(envstr("MEDIA_ROOT") or VAR_DIR / "media")

# Case packages bundled with the site, loaded by `load_bundled_cases` on start.
CASES_DIR = Path(envstr("CASES_DIR") or BASE_DIR / "cases")

REDIS_URL = envstr("REDIS_URL")

# Every new Redis connection otherwise asks importlib.metadata for redis-py's version (redis-py
# 8), which scans the installed packages: 15 % of a web process's CPU while hundreds of agents
# connected at once. The version is known; it goes to CLIENT SETINFO as before.
REDIS_DRIVER = DriverInfo(name="redis-py", lib_version=redis.__version__)

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "fdeplatform.core.channel_layer.ResilientRedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # Reads must outlast channels-redis's 5 s BZPOPMIN (else idle sockets die).
                        "socket_timeout": 15,
                        "socket_keepalive": True,  # notice a Redis that vanished without a FIN
                        # redis-py 8 caps a pool at 100 connections and then raises "Too many
                        # connections"; hundreds of sockets per process send at once.
                        "max_connections": envint("CHANNEL_REDIS_MAX_CONNECTIONS", 1000),
                        # Named per process: CLIENT LIST shows whose connections are whose.
                        "client_name": f"fde-layer-{os.getpid()}",
                        "driver_info": REDIS_DRIVER,
                    }
                ],
                "prefix": envstr("CHANNEL_PREFIX", "fde"),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# A shared cache (computed leaderboards) when Redis is there; per process otherwise.
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "fde",
            "OPTIONS": {"driver_info": REDIS_DRIVER},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Celery: a real broker when REDIS_URL is set (or CELERY_BROKER_URL, e.g. RabbitMQ). Without
# one, tasks run on a thread pool inside the web process (fdeplatform.core.background).
CELERY_BROKER_URL = envstr("CELERY_BROKER_URL") or REDIS_URL
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "default"
# The first k ranked runs per player (agent label), case and condition count on the boards.
RANKED_RUNS_COUNTED = envint("RANKED_RUNS_COUNTED", 3)

# Fair use (fdeplatform.core.ratelimit): rates like "10/s" or "30/min"; "0" turns one off.
QUESTION_RATE = envstr("QUESTION_RATE", "10/s")  # per player, websocket and REST together
RUN_START_RATE = envstr("RUN_START_RATE", "30/min")
OPEN_RUNS_PER_USER = envint("OPEN_RUNS_PER_USER", 20)
SUBMISSIONS_PER_RUN = envint("SUBMISSIONS_PER_RUN", 50)
SOCKETS_PER_USER = envint("SOCKETS_PER_USER", 20)  # per web process
# Threads per web process for the websocket's database work (questions, status): each holds a
# connection while it works, so with a pool they stay below its size (the rest is for pages).
WS_DB_THREADS = envint("WS_DB_THREADS", 0) or (
    max(2, envint("DB_POOL_SIZE", 0) - 2) if envint("DB_POOL_SIZE", 0) > 0 else 8
)
SUBMISSION_RATE = envstr("SUBMISSION_RATE", "20/min")
LOGIN_FAILURE_RATE = envstr("LOGIN_FAILURE_RATE", "10/15min")  # per username and address
# Periodic upkeep (fdeplatform.core.periodic): beat with a broker, a thread without one.
EXPIRE_SWEEP_S = envint("EXPIRE_SWEEP_S", 60)
STALE_SWEEP_S = envint("STALE_SWEEP_S", 60)
PERIODIC_TICK_S = envint("PERIODIC_TICK_S", 5)
CELERY_BEAT_SCHEDULE = {
    "expire-overdue-runs": {"task": "runs.expire_due_runs", "schedule": EXPIRE_SWEEP_S},
    "requeue-stale-scoring": {"task": "scoring.requeue_stale", "schedule": STALE_SWEEP_S},
}
# Redelivery of an unacknowledged task (acks_late) after this long: just above the longest
# scoring or judging job (hard limits EVALUATOR_TIMEOUT_S + 120 and 600 s), so a killed worker's
# task comes back in minutes, not an hour; the periodic sweep re-sends stale work too.
_LONGEST_JOB_S = max(envint("EVALUATOR_TIMEOUT_S", 60) + 120, 600)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", _LONGEST_JOB_S + 60),
    # Message priorities on Redis (0 first): scoring jobs of a player who already has work
    # waiting go behind other players' (fdeplatform.scoring.services.fair_priority).
    "priority_steps": list(range(10)),
    "sep": ":",
    "queue_order_strategy": "priority",
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "fdeplatform.accounts.authentication.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "fdeplatform.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "fdeplatform.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "fdeplatform.api.throttles.AnonThrottle",
        "fdeplatform.api.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": envstr("API_RATE", "600/minute"),
        "anon": envstr("API_ANON_RATE", "60/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "FDE practice platform API",
    "DESCRIPTION": (
        "Start runs, question the simulated customer, submit deliverables and read results. "
        "Authenticate with `Authorization: Token <key>` (`manage.py create_agent_token`)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

OPENAI_BASE_URL = envstr("OPENAI_BASE_URL")
OPENAI_API_KEY = envstr("OPENAI_API_KEY")
CUSTOMER_MODEL = envstr("CUSTOMER_MODEL")
CUSTOMER_BACKEND = envstr("CUSTOMER_BACKEND", "scripted")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# Imported case versions are copied here (never under MEDIA_ROOT: nothing here is served).
CASE_STORE = Path(envstr("CASE_STORE") or VAR_DIR / "case_store")
# Package zips staff upload wait here until their check has stored them in CASE_STORE (never
# served either). With Celery on other machines it must be shared like CASE_STORE.
AUTHORING_UPLOADS = Path(envstr("AUTHORING_UPLOADS") or VAR_DIR / "authoring_uploads")

# No upload request may exceed this, whatever a case allows (refused before it is read).
MAX_UPLOAD_REQUEST_BYTES = envint("MAX_UPLOAD_REQUEST_MB", 50) * 1_048_576

# The evaluator sandbox: wall-clock and memory limits per scoring.
EVALUATOR_TIMEOUT_S = envint("EVALUATOR_TIMEOUT_S", 60)
EVALUATOR_MEMORY_MB = envint("EVALUATOR_MEMORY_MB", 2048)
# A submission queued or scoring for longer than this is re-sent when a worker starts.
STALE_SCORING_S = envint("STALE_SCORING_S", 300)
# Queue names (separate so a slow evaluator cannot starve coverage judging).
SCORING_QUEUE = envstr("SCORING_QUEUE", "scoring")
JUDGING_QUEUE = envstr("JUDGING_QUEUE", "judging")
# Coverage judge: "offline" (deterministic, default) or "llm" (a panel of JUDGE_MODELS).
COVERAGE_JUDGE = envstr("COVERAGE_JUDGE", "offline")
