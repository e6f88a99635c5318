# NATS from Debian's packages, standing in for the official `nats:2.10-alpine` image where no
# registry answers: the same entry point and the wget its health check runs.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends nats-server wget && rm -rf /var/lib/apt/lists/* \
 && mkdir /data && chown node:node /data
USER node
EXPOSE 4222 8222
ENTRYPOINT ["nats-server"]
