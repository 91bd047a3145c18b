//! Lo que puede pasarle a una tarea después de `tokio::spawn`, visto paso a
//! paso: recoger su valor o su pánico, cancelarla en reposo o en marcha, ver
//! cómo un bucle sin `.await` ignora la cancelación, desligarla y cancelar un
//! grupo entero con `JoinSet`.
//!
//! ```text
//! cargo run -p leccion-07 --release            # bucle de CPU de 300 ms
//! cargo run -p leccion-07 -- --rapido          # bucle de 40 ms, lo que usan las pruebas
//! ```
//!
//! Todo corre en un *runtime* de un solo hilo, así que el orden de lo que
//! pasa no depende de la suerte. Las esperas son reales, pero cortas.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use leccion_07::{CuentaSondeos, Guarda, Opciones, desenlace, ms};
use medidas::numero;
use tokio::runtime::Handle;
use tokio::sync::oneshot;
use tokio::task::{AbortHandle, JoinSet};

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    // El gancho de serie imprimiría el pánico con su traza; este, una línea.
    // Corre donde ocurre el pánico, antes de que el runtime lo capture.
    std::panic::set_hook(Box::new(|info| {
        let carga = info.payload();
        let texto = carga
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| carga.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(sin texto)");
        eprintln!("   [stderr] el gancho de pánico avisa: «{texto}»");
    }));
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("no se pudo crear el runtime");
    let desligadas_soltadas = Arc::new(AtomicUsize::new(0));
    runtime.block_on(demo(opciones, desligadas_soltadas.clone()));
    println!("8. Cerrar el runtime cancela lo que quede");
    println!(
        "   antes de cerrarlo: tareas vivas {}, guardas soltadas {}",
        runtime.metrics().num_alive_tasks(),
        desligadas_soltadas.load(Ordering::SeqCst)
    );
    drop(runtime);
    println!(
        "   después de cerrarlo: guardas soltadas {} (la tarea desligada que dormía una hora)",
        desligadas_soltadas.load(Ordering::SeqCst)
    );
}

async fn demo(opciones: Opciones, desligadas_soltadas: Arc<AtomicUsize>) {
    recoger().await;
    abortar_en_reposo().await;
    abortar_en_marcha().await;
    abortar_tarde().await;
    bucle_sin_await(&opciones).await;
    desligar().await;
    grupo().await;
    dejar_una_desligada(desligadas_soltadas);
}

fn vivas() -> usize {
    Handle::current().metrics().num_alive_tasks()
}

/// 1. El valor o el pánico, los dos por el mismo camino.
async fn recoger() {
    println!("1. Recoger: .await sobre el JoinHandle da un Result");
    // ANCHOR: recoger
    let bien = tokio::spawn(async { 6 * 7 });
    println!("   una tarea que termina:        {}", desenlace(bien.await));

    let mal = tokio::spawn(async {
        let pedido = 17;
        if pedido > 10 {
            panic!("el pedido {pedido} no existe");
        }
        pedido
    });
    println!("   una tarea que entra en pánico: {}", desenlace(mal.await));
    // ANCHOR_END: recoger
    println!("   el proceso sigue vivo: el pánico se quedó dentro de la tarea");
}

/// 2. Una tarea en reposo se suelta sin volver a sondearla.
async fn abortar_en_reposo() {
    println!("2. abort sobre una tarea en reposo");
    // ANCHOR: reposo
    let sondeos = Arc::new(AtomicUsize::new(0));
    let soltadas = Arc::new(AtomicUsize::new(0));
    let guarda = Guarda(soltadas.clone());
    let dormida = async move {
        let _guarda = guarda;
        tokio::time::sleep(Duration::from_secs(3600)).await;
        println!("   (esta línea no sale nunca)");
    };
    let tarea = tokio::spawn(CuentaSondeos::new(dormida, sondeos.clone()));

    tokio::task::yield_now().await; // la tarea corre una vez y se queda esperando
    println!("   sondeos antes de abort:       {}", sondeos.load(Ordering::SeqCst));
    tarea.abort();
    println!(
        "   justo después de abort:       is_finished() = {}, guarda soltada = {}",
        tarea.is_finished(),
        soltadas.load(Ordering::SeqCst) == 1
    );
    tokio::task::yield_now().await; // ahora el runtime atiende la cancelación
    println!(
        "   tras ceder el control:        is_finished() = {}, guarda soltada = {}, sondeos = {}",
        tarea.is_finished(),
        soltadas.load(Ordering::SeqCst) == 1,
        sondeos.load(Ordering::SeqCst)
    );
    println!("   .await sobre el handle:       {}", desenlace(tarea.await));
    // ANCHOR_END: reposo
}

/// 3. Una tarea en marcha sigue hasta el siguiente `.await` que cede.
async fn abortar_en_marcha() {
    println!("3. abort sobre una tarea en marcha");
    // ANCHOR: en_marcha
    // La tarea recibe su propio AbortHandle y se cancela a sí misma: así
    // sabemos seguro que está corriendo cuando llega la petición.
    let (envia, recibe) = oneshot::channel::<AbortHandle>();
    let tarea = tokio::spawn(async move {
        let yo = recibe.await.expect("main envía el AbortHandle");
        yo.abort();
        println!("   la tarea pidió su cancelación; is_finished() = {}", yo.is_finished());
        std::future::ready(()).await;
        println!("   pasó un .await que no cede (ready): sigue corriendo");
        tokio::task::yield_now().await;
        println!("   (esta línea no sale nunca)");
    });
    envia.send(tarea.abort_handle()).expect("la tarea espera su AbortHandle");
    println!("   el .await que cede (yield_now) la paró: {}", desenlace(tarea.await));
    // ANCHOR_END: en_marcha
}

/// 4. Si la tarea termina antes de llegar a un `.await` que cede, el abort
///    llega tarde y el valor se entrega.
async fn abortar_tarde() {
    println!("4. abort que llega tarde");
    let (envia, recibe) = oneshot::channel::<AbortHandle>();
    let tarea = tokio::spawn(async move {
        let yo = recibe.await.expect("main envía el AbortHandle");
        yo.abort();
        7 // vuelve sin pasar por otro .await
    });
    envia.send(tarea.abort_handle()).expect("la tarea espera su AbortHandle");
    println!("   la tarea pidió su cancelación y volvió sin ceder: {}", desenlace(tarea.await));
}

/// El bucle de la demostración 5 nunca pasa de aquí.
const TOPE: Duration = Duration::from_secs(10);

/// 5. Un bucle de CPU sin `.await`: el abort tiene que esperar a que acabe.
async fn bucle_sin_await(opciones: &Opciones) {
    let (bucle, espera_abort) = (opciones.bucle(), opciones.espera_abort());
    println!(
        "5. Un bucle sin .await no se deja abortar (bucle de {} ms; abort a los {} ms)",
        numero(ms(bucle), 0),
        numero(ms(espera_abort), 0)
    );
    // ANCHOR: bucle
    let (avisa, empezo) = std::sync::mpsc::channel::<Instant>();
    let fin_del_bucle = Arc::new(Mutex::new(None::<Instant>));
    let paso_del_await = Arc::new(AtomicBool::new(false));
    let abort_pedido = Arc::new(AtomicBool::new(false));
    let tarea = tokio::spawn({
        let fin_del_bucle = fin_del_bucle.clone();
        let paso_del_await = paso_del_await.clone();
        let abort_pedido = abort_pedido.clone();
        async move {
            let inicio = Instant::now();
            avisa.send(inicio).expect("el hilo espera el aviso");
            let mut vueltas = 0u64;
            // Cálculo puro, sin .await. Dura `bucle`, y nunca acaba antes de
            // que llegue el abort (con un tope de 10 s), para que el orden de
            // los hechos no dependa de cuándo el sistema despierte al otro hilo.
            let llego_el_abort = || abort_pedido.load(Ordering::SeqCst);
            while inicio.elapsed() < bucle || (!llego_el_abort() && inicio.elapsed() < TOPE) {
                vueltas = std::hint::black_box(vueltas + 1);
            }
            *fin_del_bucle.lock().unwrap() = Some(Instant::now());
            tokio::task::yield_now().await; // el primer punto de suspensión
            paso_del_await.store(true, Ordering::SeqCst);
            vueltas
        }
    });

    // Otro hilo del sistema recibe un AbortHandle y pide la cancelación
    // mientras la tarea calcula. Un JoinHandle es único; AbortHandle, los que quieras.
    let abortador = tarea.abort_handle();
    let abort_pedido_hilo = abort_pedido.clone();
    let hilo = std::thread::spawn(move || {
        let inicio = empezo.recv().expect("la tarea avisa al empezar");
        std::thread::sleep(espera_abort);
        abortador.abort();
        let pedido = Instant::now();
        let terminada = abortador.is_finished();
        abort_pedido_hilo.store(true, Ordering::SeqCst);
        (inicio, pedido, terminada)
    });

    let resultado = tarea.await; // este hilo queda ocupado por el bucle hasta que acaba
    let devuelto = Instant::now();
    // ANCHOR_END: bucle
    let (inicio, pedido, terminada_al_pedir) = hilo.join().expect("el hilo no falla");
    let fin = fin_del_bucle.lock().unwrap().expect("el bucle terminó");
    println!("   otro hilo pidió abort a los:       {} ms", numero(ms(pedido - inicio), 1));
    println!("   is_finished() justo después:       {terminada_al_pedir}");
    println!("   el bucle siguió y acabó a los:     {} ms", numero(ms(fin - inicio), 1));
    println!("   el handle devolvió a los:          {} ms: {}", numero(ms(devuelto - inicio), 1), desenlace(resultado));
    println!("   el abort tardó en surtir efecto:   {} ms", numero(ms(devuelto - pedido), 1));
    println!("   del fin del bucle a la cancelación: {} µs", numero((devuelto - fin).as_secs_f64() * 1e6, 0));
    println!(
        "   el código después del .await corrió: {}",
        if paso_del_await.load(Ordering::SeqCst) { "sí" } else { "no" }
    );
}

/// 6. Soltar el JoinHandle no cancela: la tarea queda desligada.
async fn desligar() {
    println!("6. Soltar el JoinHandle desliga la tarea");
    // ANCHOR: desliga
    let (envia, recibe) = oneshot::channel();
    let tarea = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(5)).await;
        envia.send("trabajo hecho").ok();
        "un valor que nadie recogerá"
    });
    drop(tarea);
    println!("   handle soltado; tareas vivas:  {}", vivas());
    let aviso = recibe.await.expect("la tarea desligada sigue corriendo");
    tokio::task::yield_now().await;
    println!("   la tarea avisó «{aviso}» y terminó; tareas vivas: {}", vivas());
    // ANCHOR_END: desliga
}

/// Deja una tarea desligada que duerme una hora: sigue viva cuando acaba `demo`.
fn dejar_una_desligada(desligadas_soltadas: Arc<AtomicUsize>) {
    let guarda = Guarda(desligadas_soltadas);
    drop(tokio::spawn(async move {
        let _guarda = guarda;
        tokio::time::sleep(Duration::from_secs(3600)).await;
    }));
}

/// 7. JoinSet: la primera gana, `abort_all` cancela el resto, y soltar el
///    conjunto cancela lo que quede.
async fn grupo() {
    println!("7. JoinSet: un grupo de tareas");
    // ANCHOR: joinset
    let soltadas = Arc::new(AtomicUsize::new(0));
    let mut conjunto = JoinSet::new();
    for (nombre, espera) in [("lenta", 30), ("rápida", 10), ("media", 20)] {
        let guarda = Guarda(soltadas.clone());
        conjunto.spawn(async move {
            let _guarda = guarda;
            tokio::time::sleep(Duration::from_millis(espera)).await;
            nombre
        });
    }
    let primera = conjunto.join_next().await.expect("hay tareas");
    conjunto.abort_all();
    let mut canceladas = 0;
    while let Some(resultado) = conjunto.join_next().await {
        if resultado.is_err_and(|e| e.is_cancelled()) {
            canceladas += 1;
        }
    }
    // ANCHOR_END: joinset
    println!("   la primera en terminar:          {}", desenlace(primera));
    println!(
        "   tras abort_all y vaciar el grupo: {canceladas} canceladas, guardas soltadas {}",
        soltadas.load(Ordering::SeqCst)
    );

    // ANCHOR: soltar_joinset
    let soltadas = Arc::new(AtomicUsize::new(0));
    let mut conjunto = JoinSet::new();
    for _ in 0..3 {
        let guarda = Guarda(soltadas.clone());
        conjunto.spawn(async move {
            let _guarda = guarda;
            tokio::time::sleep(Duration::from_secs(3600)).await;
        });
    }
    tokio::task::yield_now().await; // las tres empiezan y se quedan esperando
    println!("   un JoinSet con 3 tareas dormidas; tareas vivas {}", vivas());
    drop(conjunto);
    println!("   justo al soltarlo:  guardas soltadas {}", soltadas.load(Ordering::SeqCst));
    tokio::task::yield_now().await;
    println!("   tras ceder:         guardas soltadas {}, tareas vivas {}", soltadas.load(Ordering::SeqCst), vivas());
    // ANCHOR_END: soltar_joinset
}
