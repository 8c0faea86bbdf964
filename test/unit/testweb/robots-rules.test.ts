import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RobotsRules } from '../../support/testweb/robots-rules.js';

test('longest match wins and Allow wins a tie (RFC 9309 §2.2.2)', () => {
  const rules = new RobotsRules(200, 'User-agent: *\nDisallow: /a/\nAllow: /a/b\nDisallow: /c\nAllow: /c\n');
  assert.equal(rules.isAllowed('/a/x'), false);
  assert.equal(rules.isAllowed('/a/bee'), true);
  assert.equal(rules.isAllowed('/c/d'), true);
  assert.equal(rules.isAllowed('/z'), true);
});

test('* matches any run of characters and $ anchors the end', () => {
  const rules = new RobotsRules(200, 'User-agent: *\nDisallow: /*.php$\nDisallow: /*?sort=\n');
  assert.equal(rules.isAllowed('/x/list.php'), false);
  assert.equal(rules.isAllowed('/x/list.php?page=2'), true);
  assert.equal(rules.isAllowed('/items?sort=price'), false);
  assert.equal(rules.isAllowed('/items?page=1&sort=price'), true);
});

test('a group naming the agent replaces the * group; matching groups merge', () => {
  const body = [
    'User-agent: *',
    'Disallow: /members/',
    '',
    'User-agent: Trawl',
    'Disallow: /drafts/',
    'Crawl-delay: 2',
    '',
    'User-agent: other',
    'User-agent: trawl',
    'Disallow: /old/',
  ].join('\n');
  const rules = new RobotsRules(200, body);
  assert.equal(rules.isAllowed('/members/x'), true);
  assert.equal(rules.isAllowed('/drafts/x'), false);
  assert.equal(rules.isAllowed('/old/x'), false);
  assert.equal(rules.isAllowed('/members/x', 'somebot'), false);
  assert.equal(rules.crawlDelaySeconds(), 2);
});

test('4xx allows everything, 5xx disallows everything but robots.txt itself', () => {
  assert.equal(new RobotsRules(404, '').isAllowed('/anything'), true);
  assert.equal(new RobotsRules(500, 'User-agent: *\nAllow: /\n').isAllowed('/anything'), false);
  assert.equal(new RobotsRules(503, '').isAllowed('/robots.txt'), true);
  assert.equal(new RobotsRules(200, '').isAllowed('/anything'), true);
});

test('Sitemap lines are collected wherever they stand', () => {
  const rules = new RobotsRules(
    200,
    'Sitemap: http://h/a.xml\nUser-agent: *\nDisallow:\nSITEMAP: http://h/b.xml\n',
  );
  assert.deepEqual(rules.sitemaps, ['http://h/a.xml', 'http://h/b.xml']);
  assert.equal(rules.isAllowed('/x'), true);
});
