# Production image: daphne serving the ASGI app; the same image runs the Celery worker
# (compose.yaml overrides the command). Static files are collected at build time.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VAR_DIR=/app/var

WORKDIR /app
# bubblewrap: the namespace sandbox case evaluators run in (evaluators/isolation.py).
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 1000 fde

COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY . .
# collectstatic needs settings, not secrets: a throwaway key that never reaches a container.
RUN SECRET_KEY=build-only-key-not-used-at-runtime-000000000 \
    python manage.py collectstatic --noinput -v0 \
 && mkdir -p /app/var && chown -R fde /app/var

USER fde
EXPOSE 8000
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py load_bundled_cases && exec python -m fdeplatform.core.serve 0.0.0.0 8000 --proxy-headers"]
