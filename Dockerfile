# The bot in a container: docker build -t tabletop-bot . (podman build reads this file as well).
# Settings come from the environment (see .env.example); the store and the replay files live under /data.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/bot.sqlite3 \
    IMAGES_DIR=/data/images \
    HTTP_HOST=0.0.0.0 \
    HTTP_PORT=9100

WORKDIR /app
COPY pyproject.toml README.md ./
COPY games ./games
COPY renderers ./renderers
COPY bot ./bot
RUN pip install ".[postgres]" \
    && useradd --system --home-dir /data --shell /usr/sbin/nologin bot \
    && mkdir -p /data/images && chown -R bot /data

USER bot
VOLUME ["/data"]
EXPOSE 9100
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ['HTTP_PORT']}/readyz\", timeout=4)"]
CMD ["python", "-m", "bot", "run"]
