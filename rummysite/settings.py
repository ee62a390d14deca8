"""Settings for the Tile Rummy site, read from the environment.

With no variables set this is the *embedded default*: SQLite, the in-memory channel layer and a
Celery worker inside the web process, so the site runs on a laptop with nothing else installed.
Setting DATABASE_URL and REDIS_URL switches to the real stack (PostgreSQL, channels-redis, Celery on
Redis with separate worker and beat processes). SECRET_KEY, DEBUG and ALLOWED_HOSTS complete a
production deployment; see README.md.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Final

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from apps.notifications.schedules import digest_hour
from apps.puzzles.schedules import midnight_in_bucharest
from rummysite import env

BASE_DIR = Path(__file__).resolve().parent.parent
# Under pytest nothing starts threads on its own: tests drive tasks explicitly.
TESTING = "pytest" in sys.modules

# --- Core -------------------------------------------------------------------------------------

SECRET_KEY_FROM_ENV = env.get_str("SECRET_KEY")
# Without a SECRET_KEY we are on somebody's laptop: debug on unless explicitly turned off.
DEBUG = env.get_bool("DEBUG", default=SECRET_KEY_FROM_ENV is None)
if SECRET_KEY_FROM_ENV is None and not DEBUG:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
if SECRET_KEY_FROM_ENV is not None and len(SECRET_KEY_FROM_ENV) < 50 and not DEBUG:
    raise ImproperlyConfigured("SECRET_KEY is too short for production: use at least 50 random characters")
SECRET_KEY = SECRET_KEY_FROM_ENV or "django-insecure-local-development-only-key-do-not-use-in-production"
# Rotating SECRET_KEY: the old key here keeps sessions and password-reset links valid until it is removed.
SECRET_KEY_FALLBACKS = env.get_list("SECRET_KEY_FALLBACKS", [])

ALLOWED_HOSTS = env.get_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.get_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "csp",
    "allauth",
    "allauth.account",
    "apps.accounts",
    "apps.social",  # follows and blocks: after accounts, below the tables, chat and pairing that ask it
    "apps.puzzles",  # the puzzle trainer and the daily puzzle (SPEC 18)
    "apps.catalog",
    "apps.tables",
    "apps.leaderboards",
    "apps.bots",
    "apps.review",
    "apps.moderation",  # after apps.accounts: its admin extends the accounts' one
    "apps.chat",
    "apps.pairing",  # quick pairing and seeks (SPEC 15): above the tables, the ratings and blocks it reads
    "apps.tournaments",  # arenas (SPEC 16): above the tables and ratings they use
    "apps.players",  # the profile pages and the bot API's account, above every app they show
    "apps.notifications",  # the bell and Web Push (SPEC 17): hears the tables' and the social app's events
    "rummysite.apps.SiteConfig",  # the site's own system checks (rummysite/checks.py)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "rummysite.security.ContentSecurityPolicyMiddleware",  # django-csp, plus the page's WebSocket origin
    "rummysite.security.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "apps.accounts.middleware.LastSeenMiddleware",
    "apps.moderation.middleware.SightingMiddleware",  # linked accounts: address and browser, once a day
    "apps.accounts.middleware.GuestsLimitedMiddleware",
]

ROOT_URLCONF = "rummysite.urls"
ASGI_APPLICATION = "rummysite.asgi.application"
WSGI_APPLICATION = None

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
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------------

DATABASE_URL = env.get_str("DATABASE_URL")
if DATABASE_URL is None:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
        }
    }
else:
    DATABASES = {"default": env.database_from_url(DATABASE_URL)}

# PostgreSQL: the move's few statements are prepared on each connection (apps/tables/services/sql.py);
# off (0) behind a pooler in transaction mode without prepared-statement support.
DATABASE_PREPARED = env.get_bool("DATABASE_PREPARED", True)

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web process and the embedded worker thread write concurrently: wait for locks instead of
    # failing, take the write lock at BEGIN (no upgrade deadlocks), and let readers run beside a writer.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
else:
    # Two ways to reuse PostgreSQL connections, measured against each other in bench/README.md
    # ("Database connections"): psycopg's pool (DATABASE_POOL=1, which Django's documentation advises
    # under ASGI; every thread borrows a connection per request or WebSocket frame and gives it back),
    # or each thread keeping its own connection for CONN_MAX_AGE seconds. Under daphne every
    # WebSocket frame that reads the database runs on one of the consumers' database threads, which
    # would otherwise open a new connection (about 6 ms of the single database thread) per frame.
    # Tests keep neither: the test runner drops its database at the end, which a kept connection blocks.
    DATABASE_POOL = env.get_bool("DATABASE_POOL", False)
    if DATABASE_POOL and not TESTING:
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections; Django refuses both
        DATABASES["default"]["OPTIONS"] = {
            "pool": {
                "min_size": env.get_int("DATABASE_POOL_MIN", 2, minimum=0, maximum=100),
                "max_size": env.get_int("DATABASE_POOL_MAX", 20, minimum=1, maximum=500),
                "timeout": env.get_float("DATABASE_POOL_TIMEOUT", 10.0, minimum=0.1, maximum=120.0),
            }
        }
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = env.get_int("CONN_MAX_AGE", 0 if TESTING else 300, minimum=0)
    # Health checks drop a connection that went bad (with the pool: before lending it).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: the live bus, cache, broker -----------------------------------------------------------

REDIS_URL = env.redis_url()

# The live bus (apps/live/bus.py): one Redis pub/sub channel per topic (a table, a user, the lobby), each
# web process subscribed to those it has sockets for. Pub/sub channels are shared by all databases of a
# Redis server, so LIVE_BUS_CHANNEL, the channels' prefix, says whose they are (the database and the Redis
# db): two sites, or two test runs, on one Redis never mix. REDIS_BUS_URLS (comma-separated) spreads the
# topics over several Redis servers by a stable hash; every process of the site needs the same list, in
# the same order. By default the bus is on REDIS_URL.
LIVE_BUS_URL = REDIS_URL
LIVE_BUS_URLS = env.get_list("REDIS_BUS_URLS", [REDIS_URL] if REDIS_URL else [])
if any(not url.startswith(("redis://", "rediss://", "unix://")) for url in LIVE_BUS_URLS):
    raise ImproperlyConfigured("REDIS_BUS_URLS must list Redis URLs: redis://HOST:PORT/DB,redis://HOST:PORT/DB")
# Or a Redis Cluster (any one node's URL): sharded pub/sub, each channel on the master of its slot.
LIVE_BUS_CLUSTER_URL = env.redis_url("REDIS_BUS_CLUSTER_URL")
LIVE_BUS_CHANNEL = env.get_str(
    "LIVE_BUS_CHANNEL", f"rummy-live:{DATABASES['default']['NAME']}:{(REDIS_URL or '').rsplit('/', 1)[-1]}"
)
LIVE_BUS_DROP_RATE = env.get_float("LIVE_BUS_DROP_RATE", 0.0, maximum=1.0)  # chaos drills only
# Frames per second (on average) and per burst that one WebSocket may send.
LIVE_FRAMES_PER_SECOND = 8.0
LIVE_FRAME_BURST = 30
# WebSockets one user, and one network address, may hold open at once across every web process (SPEC 11;
# apps/live/quota.py). One more is refused with 4429.
LIVE_SOCKETS_PER_USER = env.get_int("LIVE_SOCKETS_PER_USER", 20, minimum=1, maximum=100_000)
LIVE_SOCKETS_PER_ADDRESS = env.get_int("LIVE_SOCKETS_PER_ADDRESS", 50, minimum=1, maximum=1_000_000)

if REDIS_URL is None:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rummy"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}

# --- Celery -------------------------------------------------------------------------------------

# Embedded: an in-memory broker and a worker thread inside the web process (rummysite/embedded.py).
CELERY_EMBEDDED = env.get_bool("CELERY_EMBEDDED", default=REDIS_URL is None and not TESTING)
CELERY_BROKER_URL = env.get_str("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05} if CELERY_BROKER_URL == "memory://" else {}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes every database connection before and after each task unless this is set
# (a new PostgreSQL connection per task: 2-3 ms of the worker's CPU and a backend process started,
# bench/README.md "Notifications"). With it, the worker's connections follow Django's own rules instead,
# as a request's do: rummysite/celery.py runs close_old_connections around each task (CONN_MAX_AGE,
# CONN_HEALTH_CHECKS, a connection left unusable by an error).
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Beat writes its schedule file after every task it sends: the file's age is its healthcheck (compose.yaml).
CELERY_BEAT_SYNC_EVERY = 1
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Every second: the turn timeouts that are due, and (the backstop for lost tasks) any other table
    # action overdue by more than a second.
    "tables-sweep-due": {"task": "tables.sweep_due", "schedule": 1.0},
    # Every minute: unstarted tables nobody watched for TABLE_UNWATCHED_CLOSE_SECONDS close (SPEC 11).
    "tables-close-unused": {"task": "tables.close_unused", "schedule": 60.0},
    # Backstop for a lost rate_match message; and the removal of old unused guest accounts.
    "leaderboards-rate-pending": {"task": "apps.leaderboards.tasks.rate_pending_matches", "schedule": 60.0},
    "accounts-cleanup-guests": {"task": "apps.accounts.tasks.cleanup_guests", "schedule": 6 * 60 * 60.0},
    # Backstop for a lost review task: finished games of the last two days without a review.
    "review-pending": {"task": "review.review_pending", "schedule": 120.0},
    # The daily puzzle, chosen at midnight in Bucharest (a request that finds today without one chooses it too).
    "puzzles-choose-daily": {"task": "puzzles.choose_daily", "schedule": midnight_in_bucharest()},
    # Quick pairing's wave (SPEC 15): the gone pages out, the absent paired players settled, tables formed.
    "pairing-wave": {"task": "pairing.wave", "schedule": env.get_float("PAIRING_WAVE_SECONDS", 2.0, minimum=0.5, maximum=60.0)},
    # Arenas (SPEC 16): start, remind, pair and finish every 2 s (one run at a time: an advisory lock);
    # the calendar of the next six hours (also planned when beat starts: apps/tournaments/tasks.py).
    "tournaments-tick": {"task": "tournaments.tick", "schedule": 2.0},
    "tournaments-plan-calendar": {"task": "tournaments.plan_calendar", "schedule": 300.0},
    # Notifications are kept 30 days (SPEC 17).
    "notifications-prune": {"task": "notifications.prune", "schedule": 60 * 60.0},
    # The opt-in daily e-mail of the no-timer tables waiting for each player, at 08:00 in Bucharest (SITE_URL, EMAIL_URL).
    "notifications-email-digest": {"task": "notifications.email_digest", "schedule": digest_hour()},
    # Challenges past their time (SPEC 17): each action expires the one it touches; this tells the rest.
    "social-expire-challenges": {"task": "social.expire_challenges", "schedule": 300.0},
}

# --- Quick pairing (SPEC 15; apps/pairing, docs/operations.md) ------------------------------------

# A join runs its pool's wave at once when this many wait there (else the beat's wave, every
# PAIRING_WAVE_SECONDS above); a waiting page not seen for PAIRING_GONE_SECONDS leaves the pool; a paired
# player not at the table within PAIRING_ARRIVE_SECONDS loses the seat; a casual player who asked for one
# gets a bot after PAIRING_BOT_SECONDS.
PAIRING_AT_ONCE = env.get_int("PAIRING_AT_ONCE", 8, minimum=2, maximum=10_000)
PAIRING_GONE_SECONDS = env.get_float("PAIRING_GONE_SECONDS", 5.0, minimum=1.0, maximum=600.0)
PAIRING_ARRIVE_SECONDS = env.get_float("PAIRING_ARRIVE_SECONDS", 15.0, minimum=2.0, maximum=600.0)
PAIRING_BOT_SECONDS = env.get_float("PAIRING_BOT_SECONDS", 25.0, minimum=0.0, maximum=3600.0)

# --- Tables -----------------------------------------------------------------------------------------

TABLE_BOT_DELAY = env.get_float("TABLE_BOT_DELAY", 0.9)  # seconds before each bot move
# Threads (each with its database connection) for the table and lobby WebSockets' database work, per
# web process.
ASGI_SWITCH_INTERVAL = env.get_int("ASGI_SWITCH_INTERVAL_US", 1000, minimum=100, maximum=100_000) / 1e6
# The garbage collector of a web process (apps/live/collector.py): what survives is frozen every
# LIVE_GC_FREEZE_SECONDS (0: Python's own collector, as in the tests), one full collection every
# LIVE_GC_FULL_SECONDS; collections longer than LIVE_GC_LOG_MS are logged (0: none).
LIVE_GC_FREEZE_SECONDS = env.get_float("LIVE_GC_FREEZE_SECONDS", 0.0 if TESTING else 10.0, maximum=86400.0)
LIVE_GC_FULL_SECONDS = env.get_float("LIVE_GC_FULL_SECONDS", 900.0, minimum=1.0, maximum=86400.0)
LIVE_GC_LOG_MS = env.get_float("LIVE_GC_LOG_MS", 0.0, maximum=60_000.0)
TABLES_DB_THREADS = env.get_int("TABLES_DB_THREADS", 4, minimum=1, maximum=64)
# HTTP requests inside Django at once, per web process (each holds at most one database connection, closed
# when it ends); the others wait their turn (rummysite/connections.py).
HTTP_CONCURRENCY = env.get_int("HTTP_CONCURRENCY", 8, minimum=1, maximum=1000)
TABLE_AUTOPILOT_DELAY = 0.6  # seconds before an autopilot turn
# SPEC 17, slow tables: at a table without a timer, a turn waits this long before the autopilot plays it.
TABLE_SLOW_AWAY_SECONDS = env.get_float("TABLE_SLOW_AWAY_SECONDS", 24 * 3600, minimum=60, maximum=7 * 24 * 3600)
# Downtime (apps/tables/liveness.py): web processes write a heartbeat; after downtime every turn clock
# gets it back plus this grace, in seconds.
TABLE_WEB_HEARTBEAT = env.get_bool("TABLE_WEB_HEARTBEAT", not TESTING)
TABLE_DOWNTIME_GRACE = env.get_float("TABLE_DOWNTIME_GRACE", 15.0, maximum=300.0)
TABLE_NEXT_GAME_DELAY = env.get_float("TABLE_NEXT_GAME_DELAY", 20.0)  # scores stay on screen, unless all are ready sooner
# Each web process compares its tables' versions with the database this often (lost-message repair).
TABLE_ROOM_CHECK_SECONDS = env.get_float("TABLE_ROOM_CHECK_SECONDS", 1.0, minimum=0.1, maximum=60.0)
# Provably fair deals (apps/tables/fairness.py): the seconds a match waits for its human seats' browser
# seeds before the first deal (it deals at once when every seed is in). Tests deal at once unless a test
# sets a window of its own.
TABLE_FAIR_SEED_SECONDS = env.get_float("TABLE_FAIR_SEED_SECONDS", 0.0 if TESTING else 5.0, maximum=60.0)
# Rated play (SPEC 11, apps/tables/rated.py): of the rated matches that start within RATED_REPEAT_HOURS
# among the same accounts, only the first RATED_REPEAT_LIMIT are rated; a seat standing up before every
# person has made RATED_ABORT_TURNS turns of their own in the first game aborts the match.
RATED_REPEAT_LIMIT = env.get_int("RATED_REPEAT_LIMIT", 3, minimum=1)
RATED_REPEAT_HOURS = env.get_float("RATED_REPEAT_HOURS", 24.0, minimum=0.0)
RATED_ABORT_TURNS = env.get_int("RATED_ABORT_TURNS", 3, minimum=0)
# Presence (apps/tables/presence.py, SPEC 13): a player's last socket closed is told after this grace
# (a reload within it tells nobody); the whole delay stays well inside the 5 s the spec allows.
TABLE_PRESENCE_GRACE_SECONDS = env.get_float("TABLE_PRESENCE_GRACE_SECONDS", 2.0, minimum=0.0, maximum=4.0)
# Chat (apps/chat, SPEC 13): at most this many messages per user in this many seconds, at every table.
CHAT_RATE_MESSAGES = env.get_int("CHAT_RATE_MESSAGES", 5, minimum=1, maximum=1000)
CHAT_RATE_SECONDS = env.get_float("CHAT_RATE_SECONDS", 10.0, minimum=1.0, maximum=3600.0)
# Reports of a chat message: at most this many per user in this many seconds (apps/chat/services.py).
REPORT_RATE_REPORTS = env.get_int("REPORT_RATE_REPORTS", 5, minimum=1, maximum=1000)
REPORT_RATE_SECONDS = env.get_float("REPORT_RATE_SECONDS", 600.0, minimum=1.0, maximum=86_400.0)
# Hints (apps/review/hint_pool.py): searches run in HINT_SEARCH_WORKERS niced worker processes (threads
# in tests), at most HINT_SEARCH_QUEUE waiting per worker, each given HINT_SEARCH_SECONDS.
HINT_SEARCH_POOL = env.get_str("HINT_SEARCH_POOL", "thread" if TESTING else "process")
HINT_SEARCH_WORKERS = env.get_int("HINT_SEARCH_WORKERS", 1, minimum=1, maximum=64)
HINT_SEARCH_QUEUE = env.get_int("HINT_SEARCH_QUEUE", 2, minimum=0, maximum=1000)
HINT_SEARCH_NICE = env.get_int("HINT_SEARCH_NICE", 10, minimum=0, maximum=19)
HINT_SEARCH_SECONDS = env.get_float("HINT_SEARCH_SECONDS", 3.0, minimum=0.1, maximum=60.0)
# Replays and post-game reviews (apps/review/views.py): requests per client a minute.
REVIEW_REPLAYS_PER_MINUTE = env.get_int("REVIEW_REPLAYS_PER_MINUTE", 60, minimum=1, maximum=100_000)
REVIEW_POLLS_PER_MINUTE = env.get_int("REVIEW_POLLS_PER_MINUTE", 240, minimum=1, maximum=100_000)
# Tests drive the table's own actions explicitly (services.table_due / tables_sweep_due).
TABLE_ENQUEUE_TASKS = not TESTING
# Limits (SPEC 11): tables one user hosts that have not started; tables one user sits at (open or
# playing); seconds an unstarted table stays open with nobody looking at it.
TABLE_UNSTARTED_PER_HOST = env.get_int("TABLE_UNSTARTED_PER_HOST", 3, minimum=1, maximum=10_000)
TABLE_SEATS_PER_USER = env.get_int("TABLE_SEATS_PER_USER", 5, minimum=1, maximum=10_000)
TABLE_UNWATCHED_CLOSE_SECONDS = env.get_int("TABLE_UNWATCHED_CLOSE_SECONDS", 600, minimum=1, maximum=7 * 24 * 3600)

# Bot accounts and the bot API (SPEC 14, docs/bot-api.md).
BOT_API_REQUESTS_PER_MINUTE = env.get_int("BOT_API_REQUESTS_PER_MINUTE", 120, minimum=1, maximum=100_000)  # per token
BOT_ACCOUNTS_PER_OWNER = env.get_int("BOT_ACCOUNTS_PER_OWNER", 10, minimum=0, maximum=1000)
BOT_TOKENS_PER_ACCOUNT = 10
CELERY_BEAT_SCHEDULE_FILENAME = env.get_str(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(Path(tempfile.gettempdir()) / "rummy-celerybeat-schedule")
)

# --- Accounts -------------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
ACCOUNT_ADAPTER = "apps.accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.get_str("ACCOUNT_EMAIL_VERIFICATION", "optional")
# Sign-up, guest conversion and password reset never tell whether an address has an account (SPEC 11):
# allauth's enumeration prevention. The sign-up form runs its own sign-up as mandatory verification
# (apps/accounts/forms.py), so a new account and a taken address get the same "check your email" page
# (the address's owner is mailed) whatever ACCOUNT_EMAIL_VERIFICATION says about signing in.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_FORMS = {"signup": "apps.accounts.forms.SignupForm"}
# New guest accounts per network address (SPEC 11; apps/accounts/services.guests_admit): a whole class at
# once (the burst, in 10 minutes), a few dozen an hour (a script stops there).
GUESTS_PER_ADDRESS_PER_HOUR = env.get_int("GUESTS_PER_ADDRESS_PER_HOUR", 80, minimum=1, maximum=1_000_000)
GUESTS_PER_ADDRESS_BURST = env.get_int("GUESTS_PER_ADDRESS_BURST", 40, minimum=1, maximum=1_000_000)
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/h/ip",
    "reset_password": "20/m/ip,5/m/key",
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Production must say where mail goes: password resets and address confirmations printed to a console
# nobody reads would fail silently. EMAIL_URL=console (on purpose) prints them, as on a laptop.
EMAIL_URL = env.get_str("EMAIL_URL")
if EMAIL_URL is None and not DEBUG:
    raise ImproperlyConfigured(
        "EMAIL_URL must be set when DEBUG is off: smtp+tls://USER:PASSWORD@HOST:587, or EMAIL_URL=console "
        "to print every email to the log on purpose"
    )
if EMAIL_URL is None or EMAIL_URL in ("console", "console://", "consolemail://"):
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    try:
        globals().update(env._env.email_url_config(EMAIL_URL))
    except Exception as exc:  # django-environ raises several kinds here
        raise ImproperlyConfigured(f"EMAIL_URL={EMAIL_URL!r} is not an email URL: use smtp+tls://USER:PASSWORD@HOST:PORT") from exc
DEFAULT_FROM_EMAIL = env.get_str("DEFAULT_FROM_EMAIL", "Tile Rummy <noreply@localhost>")
# The site's address for links in mail sent outside a request (the daily digest): compose's
# CSRF_TRUSTED_ORIGINS is https://SITE_HOST.
SITE_URL = env.get_str("SITE_URL", CSRF_TRUSTED_ORIGINS[0] if CSRF_TRUSTED_ORIGINS else "http://localhost:8000").rstrip("/")

# --- Internationalisation ------------------------------------------------------------------------

# SPEC 12. The language: the visitor's choice (the footer switch: the cookie, and a registered player's
# profile applied at sign-in: apps/accounts/language.py), else the browser's Accept-Language
# (LocaleMiddleware), else English. Catalogues: locale/ (the site's own strings, `make messages`) and
# locale/overrides/ (what the site shows of Django's and allauth's own strings, in better Romanian than
# theirs); the first path wins. Compiled at install (`make run`: manage.py compile_catalogues).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ro", _("Romanian"))]
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale" / "overrides"]
USE_I18N = True
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60  # the choice outlives the browser session
LANGUAGE_COOKIE_SAMESITE: Final = "Lax"  # Final: its type is the literal set_cookie takes
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files -------------------------------------------------------------------------------

STATIC_URL = "/static/"
# Where `collectstatic` writes (and whitenoise serves from, DEBUG off); a web process with DEBUG off stops
# at start while its manifest is missing (rummysite/checks.py).
STATIC_ROOT = Path(env.get_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Security -------------------------------------------------------------------------------------

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (addresses or networks); from
# anyone else those headers are dropped (apps/lib/client_address.py). Empty: no proxy, the TCP peer
# is the client (make run, bench). docker/compose.yaml gives its proxy a fixed address and lists it here.
TRUSTED_PROXIES = env.get_networks("TRUSTED_PROXIES", [])
# Client addresses (as resolved above) that may read health details and metrics without signing in:
# the compose healthchecks run inside each container, Prometheus on the internal network.
INTERNAL_NETWORKS = env.get_networks("INTERNAL_NETWORKS", ["127.0.0.0/8", "::1/128"])

# Content Security Policy (django-csp; rummysite/security.py adds the page's own WebSocket origin to
# connect-src). The site serves its own JavaScript and CSS only (ES modules and stylesheets under
# /static/), and puts page data in inline `<script type="application/json">` blocks, which browsers never
# execute and CSP does not block: scripts, styles, fonts and images from the site itself, and nothing
# inline (tests/security/test_headers.py checks the templates keep to that), except style *attributes*
# set by the site's own scripts (a progress bar's width via dom.js's setAttribute).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "manifest-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(), usb=()"
)

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.get_bool("SECURE_SSL_REDIRECT", True)
    # Internal callers (healthchecks, Prometheus) speak plain HTTP to daphne directly.
    SECURE_REDIRECT_EXEMPT = [r"^livez$", r"^readyz$", r"^healthz$", r"^metrics$"]
    # HSTS starts short and without preload: a first deploy whose HTTPS turns out broken costs its
    # visitors an hour, not a year, and preload (browsers' built-in lists) is a promise that takes
    # months to take back. docs/operations.md ("HTTPS") says when and how to raise both.
    SECURE_HSTS_SECONDS = env.get_int("SECURE_HSTS_SECONDS", 3600, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.get_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env.get_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]  # preload off is the decision above, not an oversight
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# --- Observability ----------------------------------------------------------------------------------

# Prometheus (rummysite/metrics.py, docs/operations.md "Observe"). /metrics answers staff, the internal
# networks and `Authorization: Bearer METRICS_TOKEN`; METRICS_PORT (0: off) serves this process's
# metrics to Prometheus from a thread, on METRICS_ADDR, never through the proxy.
METRICS_TOKEN = env.get_str("METRICS_TOKEN")
if METRICS_TOKEN is not None and len(METRICS_TOKEN) < 32:
    raise ImproperlyConfigured("METRICS_TOKEN is too short: use at least 32 random characters")
METRICS_PORT = env.get_int("METRICS_PORT", 0, minimum=0, maximum=65535)
METRICS_ADDR = env.get_str("METRICS_ADDR", "127.0.0.1")

# --- Logging ----------------------------------------------------------------------------------------

# One JSON object per line in production (rummysite/json_logs.py), plain lines on a laptop. Celery's
# worker and beat then log through this configuration too, instead of replacing it with their own.
LOG_JSON = env.get_bool("LOG_JSON", not DEBUG)
CELERY_WORKER_HIJACK_ROOT_LOGGER = not LOG_JSON
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "rummysite.json_logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json" if LOG_JSON else "plain"}},
    "root": {"handlers": ["console"], "level": env.get_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        "celery": {"level": "WARNING"},
        "kombu": {"level": "ERROR"},
    },
}

# --- Notifications (apps/notifications) ------------------------------------------------------------

# Web Push: a VAPID key pair (`manage.py vapid_keys` prints one; never committed). Without both keys Web
# Push is off and the notifications' settings page says so. The subject is a contact for push services.
WEBPUSH_VAPID_PUBLIC_KEY = env.get_str("WEBPUSH_VAPID_PUBLIC_KEY", "")
WEBPUSH_VAPID_PRIVATE_KEY = env.get_str("WEBPUSH_VAPID_PRIVATE_KEY", "")
WEBPUSH_VAPID_SUBJECT = env.get_str("WEBPUSH_VAPID_SUBJECT", "mailto:admin@localhost")
# Seconds between the event and its push (lichess waits 2 s: a player at the table has moved on by then).
NOTIFICATIONS_PUSH_DELAY = env.get_float("NOTIFICATIONS_PUSH_DELAY", 2.0, maximum=60.0)

# --- Error reports --------------------------------------------------------------------------------------

# Sentry (rummysite/error_reports.py) when SENTRY_DSN is set: no personal data, no hidden tiles.
SENTRY_DSN = env.get_str("SENTRY_DSN")
if SENTRY_DSN is not None:
    from rummysite import error_reports

    error_reports.init(
        dsn=SENTRY_DSN,
        environment=env.get_str("SENTRY_ENVIRONMENT", "production") or "production",
        release=env.get_str("SENTRY_RELEASE"),
        traces_sample_rate=env.get_float("SENTRY_TRACES_SAMPLE_RATE", 0.0, maximum=1.0),
    )
