# The engine as a team server's image (docker-compose.yml). Documentation, like the
# compose file: CI has no Docker and does not build it.
FROM node:20-bookworm-slim
WORKDIR /app
# The desktop shell's Electron binary is not needed to serve.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build
ENV HOOKSCOPE_DATA_DIR=/data
ENTRYPOINT ["node", "bin/hookscope.mjs"]
CMD ["serve", "--api-host", "0.0.0.0", "--receiver-host", "0.0.0.0"]
