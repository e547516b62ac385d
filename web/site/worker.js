// The Monte Carlo worker: salvo's OddsStepper (app/stepper.h) run a few blocks at a time, with
// progress between steps and a Stop that takes effect at the next step. The page starts it from
// a Blob made of this function and the module's factory (so it works from file:// too).
'use strict';

function salvoWorkerMain() {
  let stop = false;
  let salvo = null;
  self.onmessage = async (e) => {
    const m = e.data;
    if (m.type === 'stop') { stop = true; return; }
    if (m.type !== 'run') return;
    stop = false;
    if (!salvo) salvo = await createSalvo();
    for (const [path, text] of Object.entries(m.files || {})) {
      const dir = path.split('/').slice(0, -1).join('/');
      if (dir) salvo.FS.mkdirTree('/' + dir);
      salvo.FS.writeFile('/' + path, text);
    }
    const stepper = new salvo.OddsStepper(m.toml, JSON.stringify(m.options));
    // Steps of about 100 ms: start with one block, double while a step is quicker.
    let blocks = 1;
    const started = performance.now();
    const tick = () => {
      if (stop) return finish(true);
      const t0 = performance.now();
      const more = stepper.step(blocks);
      const dt = performance.now() - t0;
      if (dt < 50 && blocks < 1024) blocks *= 2;
      self.postMessage({ type: 'progress', done: stepper.trialsDone(), planned: stepper.trialsPlanned() });
      if (!more) return finish(false);
      setTimeout(tick, 0);  // let a 'stop' message in
    };
    const finish = (stopped) => {
      const json = stepper.json();
      stepper.delete();
      self.postMessage({ type: 'done', json, stopped, ms: performance.now() - started });
    };
    tick();
  };
}
