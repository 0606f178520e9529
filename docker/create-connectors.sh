#!/bin/sh
# Creates (or updates) both connectors from config-examples/, filling the ${PGLANE_*} placeholders
# from the environment. PGLANE_FORMAT picks the variant: json (default) or avro.
set -eu
format=${PGLANE_FORMAT:-json}

until curl -fs "$CONNECT_URL/connector-plugins" > /dev/null; do
  echo "waiting for Kafka Connect at $CONNECT_URL"
  sleep 2
done

fill() {
  sed -e "s|\${PGLANE_SOURCE_HOST}|$PGLANE_SOURCE_HOST|g" \
      -e "s|\${PGLANE_SOURCE_PORT}|$PGLANE_SOURCE_PORT|g" \
      -e "s|\${PGLANE_SOURCE_DB}|$PGLANE_SOURCE_DB|g" \
      -e "s|\${PGLANE_SOURCE_USER}|$PGLANE_SOURCE_USER|g" \
      -e "s|\${PGLANE_SOURCE_PASSWORD}|$PGLANE_SOURCE_PASSWORD|g" \
      -e "s|\${PGLANE_TARGET_HOST}|$PGLANE_TARGET_HOST|g" \
      -e "s|\${PGLANE_TARGET_PORT}|$PGLANE_TARGET_PORT|g" \
      -e "s|\${PGLANE_TARGET_DB}|$PGLANE_TARGET_DB|g" \
      -e "s|\${PGLANE_TARGET_USER}|$PGLANE_TARGET_USER|g" \
      -e "s|\${PGLANE_TARGET_PASSWORD}|$PGLANE_TARGET_PASSWORD|g" \
      -e "s|\${PGLANE_BOOTSTRAP_SERVERS}|$PGLANE_BOOTSTRAP_SERVERS|g" \
      -e "s|\${PGLANE_REGISTRY_URL}|$PGLANE_REGISTRY_URL|g" \
      "$1"
}

for side in source sink; do
  fill "/pglane/config-examples/$side-$format.json" > "/tmp/$side.json"
  echo "creating pglane-$side"
  curl -fsS -X PUT -H 'Content-Type: application/json' \
       --data @"/tmp/$side.json" "$CONNECT_URL/connectors/pglane-$side/config"
  echo
done
