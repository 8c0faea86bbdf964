// A CPU pool thread's entry. piscina loads a thread's task file with require(), and Node 20's require() of an
// ES module graph aborts the whole process when the thread is stopped (a deadline, a heap limit, the pool
// closing) while that graph is still being instantiated. So piscina requires this CommonJS file, which loads
// the compiled tasks (cpu-tasks.js, named by the pool in workerData) with import(), which a stopped thread
// simply abandons. Its export is the promise of the task function: piscina awaits it before the thread takes
// a task, so loading never counts against a task's deadline. Under tsx (tests, `npm run dev`) the tasks are
// TypeScript, which tsx's require() hook compiles to CommonJS (no ES module graph, and tsx's import() hooks do
// not reach worker threads), so they are required as before.
'use strict';
const { pathToFileURL } = require('node:url');
const { workerData } = require('node:worker_threads');

const tasksFile = workerData.tasksFile;

module.exports = tasksFile.endsWith('.ts')
  ? require(tasksFile)
  : import(pathToFileURL(tasksFile).href).then((tasks) => tasks.default);
