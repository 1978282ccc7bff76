import Fastify from 'fastify';

// Baseline: bare Fastify hello-world on the same machine.
const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`LISTENING ${address}`);
setInterval(() => console.log(`RSS ${Math.round(process.memoryUsage().rss / 1e6)}`), 500).unref();
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
