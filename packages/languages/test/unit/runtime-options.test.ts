// The runtime options an operator gives every driver of a language (SCB_JAVA_DRIVER_OPTIONS,
// SCB_NODE_DRIVER_OPTIONS): only the shapes the language allows, refused by name otherwise, and
// recorded per language (java-driver.test.ts checks a JVM gets them).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { java } from '../../src/java/index';
import { runtimeOptionsByLanguage, RuntimeOptionsError, runtimeOptionsOf } from '../../src/launch/runtime-options';
import { node } from '../../src/node/index';
import { go } from '../../src/go/index';

const JAVA = java.runtimeOptions!;
const NODE = node.runtimeOptions!;

test('the options a JVM and a Node driver may be given are taken, split on whitespace', () => {
  assert.deepEqual(runtimeOptionsOf(JAVA, { SCB_JAVA_DRIVER_OPTIONS: ' -XX:TieredStopAtLevel=1  -XX:+UseSerialGC -Xmx512m -Xss1m -XX:-TieredCompilation ' }), [
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    '-Xmx512m',
    '-Xss1m',
    '-XX:-TieredCompilation',
  ]);
  assert.deepEqual(runtimeOptionsOf(NODE, { SCB_NODE_DRIVER_OPTIONS: '--single-threaded-gc --max-old-space-size=2048' }), ['--single-threaded-gc', '--max-old-space-size=2048']);
  assert.deepEqual(runtimeOptionsOf(JAVA, {}), []);
  assert.deepEqual(runtimeOptionsOf(NODE, { SCB_NODE_DRIVER_OPTIONS: '   ' }), []);
});

test('an option that could run, load, open or write anything is refused, naming the variable and the option', () => {
  const refused: [typeof JAVA, string, string][] = [
    [JAVA, 'SCB_JAVA_DRIVER_OPTIONS', '-XX:OnError=sh'],
    [JAVA, 'SCB_JAVA_DRIVER_OPTIONS', '-XX:OnOutOfMemoryError=kill'],
    [JAVA, 'SCB_JAVA_DRIVER_OPTIONS', '-javaagent:/tmp/a.jar'],
    [JAVA, 'SCB_JAVA_DRIVER_OPTIONS', '-XX:Flags=/etc/passwd'],
    [JAVA, 'SCB_JAVA_DRIVER_OPTIONS', '-XX:TieredStopAtLevel=1;id'],
    [JAVA, 'SCB_JAVA_DRIVER_OPTIONS', '-cp'],
    [NODE, 'SCB_NODE_DRIVER_OPTIONS', '--inspect=0.0.0.0:9229'],
    [NODE, 'SCB_NODE_DRIVER_OPTIONS', '--require=/tmp/x.js'],
    [NODE, 'SCB_NODE_DRIVER_OPTIONS', '--import'],
    [NODE, 'SCB_NODE_DRIVER_OPTIONS', '--trace-gc'],
    [NODE, 'SCB_NODE_DRIVER_OPTIONS', '--max-old-space-size=big'],
    [NODE, 'SCB_NODE_DRIVER_OPTIONS', '--single-threaded-gcx'],
  ];
  for (const [rule, variable, option] of refused) {
    assert.throws(
      () => runtimeOptionsOf(rule, { [variable]: `${variable === 'SCB_NODE_DRIVER_OPTIONS' ? '--single-threaded-gc' : '-XX:+UseSerialGC'} ${option}` }),
      (e) => e instanceof RuntimeOptionsError && e.message.startsWith(`${variable}: ${JSON.stringify(option)} is not an option`),
      option,
    );
  }
});

test('Node’s sandbox still finds the bundle after the options, and the options are recorded per language', () => {
  const launch = { command: 'node', args: ['--single-threaded-gc', '/cache/drivers/node/driver-1.mjs', '/cache/clients/node/9.0.0'], dir: '/cache/clients/node/9.0.0' };
  assert.deepEqual(node.sandboxReadOnly!(launch), [launch.dir, '/cache/drivers/node/driver-1.mjs']);
  const env = { SCB_NODE_DRIVER_OPTIONS: '--single-threaded-gc', SCB_JAVA_DRIVER_OPTIONS: '-XX:TieredStopAtLevel=1' };
  assert.deepEqual(runtimeOptionsByLanguage([node, java, go], env), { node: '--single-threaded-gc', java: '-XX:TieredStopAtLevel=1' });
  assert.deepEqual(runtimeOptionsByLanguage([node, java, go], {}), {});
  assert.throws(() => runtimeOptionsByLanguage([node, java, go], { SCB_JAVA_DRIVER_OPTIONS: '-XX:OnError=id' }), RuntimeOptionsError);
});
