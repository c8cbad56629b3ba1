import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      dataDir: './data',
      databaseUrl: undefined,
      smtpUrl: undefined,
      adminEmails: [],
      seedDemo: true,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://shop.example.com/',
      ADMIN_EMAILS: ' Owner@Example.com, helper@example.com ',
      SEED_DEMO: 'false',
      DATABASE_URL: 'postgres://shop@db.example/shop',
      SMTP_URL: 'smtp://user:pass@mail.example:587',
    });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('https://shop.example.com');
    expect(config.adminEmails).toEqual(['owner@example.com', 'helper@example.com']);
    expect(config.seedDemo).toBe(false);
    expect(config.databaseUrl).toBe('postgres://shop@db.example/shop');
    expect(config.smtpUrl).toBe('smtp://user:pass@mail.example:587');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PUBLIC_URL', 'shop.example.com'],
    ['DATABASE_URL', 'mysql://localhost/shop'],
    ['ADMIN_EMAILS', 'owner@example.com, not-an-email'],
    ['SEED_DEMO', 'maybe'],
  ])('stops with a message naming %s when it is %j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
