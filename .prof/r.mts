import { Redis } from 'ioredis';
import { createRedisRateLimitStore } from '../src/storage/redis/redis-rate-limit-store.ts';
const redis = new Redis('redis://127.0.0.1:6379');
const store = createRedisRateLimitStore({ redis, prefix: `vbench:probe:${process.pid}:` });
try { console.log(await store.hit({ key: 'k', windowMs: 60000, now: Date.now() })); } catch (e) { console.log('ERR', e); }
await redis.del(`vbench:probe:${process.pid}:k`); const left = await redis.keys(`vbench:probe:${process.pid}:*`); if (left.length) await redis.del(...left);
await redis.quit();
