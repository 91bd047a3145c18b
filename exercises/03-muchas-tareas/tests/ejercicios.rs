//! Pruebas del capítulo 03. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/03-muchas-tareas`) y contra la solución
//! (`solutions/03-muchas-tareas`). Un módulo por ejercicio.
//!
//! Dos clases de pruebas: con un guion (`tokio_test::io::Builder`: «el
//! cliente manda esto, el servidor debe contestar esto otro»), en tiempo
//! simulado; y con conexiones de verdad por 127.0.0.1, en un puerto que
//! elige el sistema (el 0).
//!
//! Lo que comprueba cada módulo:
//!
//! - `eco`: devuelve cada byte leído, en orden, en un bucle hasta que `read`
//!   da 0; escribe entero aunque la conexión acepte menos de una vez
//!   (`write_all`, no `write`); un error de lectura vuelve a quien llamó y no
//!   se confunde con un cierre, y uno de escritura también vuelve; funciona
//!   por una conexión de verdad.
//! - `acepta`: una tarea por conexión (`tokio::spawn`), el apagado se atiende
//!   aunque no llegue nadie (`select!`), se devuelven las aceptadas, se suelta
//!   el puerto, y las conexiones abiertas siguen vivas tras el apagado: ni se
//!   espera a que terminen ni se cancelan. Mientras sirve, no se guarda nada
//!   de las conexiones que terminan (la memoria no crece con cada cliente).
//! - `lineas`: una línea es lo que hay hasta el `\n`, llegue como llegue;
//!   solo se quitan el `\n` y un `\r` (los espacios del texto son del
//!   texto); cada respuesta sale en cuanto se tiene; `ADIOS` contesta y
//!   cierra; un error de lectura vuelve a quien llamó.

mod apoyo {
    use std::any::Any;
    use std::future::Future;
    use std::time::Duration;

    /// Corre `conversacion` en su propia tarea. Si el guion de prueba se
    /// queja (entra en pánico) o la conversación se queda esperando para
    /// siempre, lo dice en español. Usa el reloj en pausa: la espera de
    /// guarda es tiempo simulado, no de verdad.
    pub async fn conversa<F, T>(conversacion: F) -> Result<T, String>
    where
        F: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let tarea = tokio::spawn(conversacion);
        match tokio::time::timeout(Duration::from_secs(60), tarea).await {
            Ok(Ok(valor)) => Ok(valor),
            Ok(Err(error)) => {
                let mensaje = mensaje_de_panico(error.into_panic());
                let nota = if mensaje.contains("left:") {
                    "\n(los números son bytes en ASCII: `left` es lo que escribió tu código y \
                     `right`, lo que esperaba el guion)"
                } else {
                    ""
                };
                Err(format!("la conversación no siguió el guion: {mensaje}{nota}"))
            }
            Err(_) => Err("la conversación se quedó esperando: tu código lee cuando el cliente \
                           espera una respuesta. ¿Escribiste la respuesta entera? ¿Te falta un flush?"
                .into()),
        }
    }

    fn mensaje_de_panico(panico: Box<dyn Any + Send>) -> String {
        panico
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panico.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "(pánico sin mensaje)".into())
    }

    /// Los bytes que tiene pedidos al asignador el hilo que llama: lo que
    /// pidió menos lo que devolvió. Con un runtime de un solo hilo, todo lo
    /// que hacen las tareas de una prueba se apunta en su hilo.
    pub fn bytes_vivos() -> isize {
        VIVOS.with(std::cell::Cell::get)
    }

    thread_local! {
        static VIVOS: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
    }

    /// El asignador del sistema, apuntando cuánto pide y devuelve cada hilo.
    struct Contador;

    // SAFETY: todo lo hace `System`; aquí solo se suma y se resta.
    unsafe impl std::alloc::GlobalAlloc for Contador {
        unsafe fn alloc(&self, forma: std::alloc::Layout) -> *mut u8 {
            let p = unsafe { std::alloc::System.alloc(forma) };
            if !p.is_null() {
                let _ = VIVOS.try_with(|v| v.set(v.get() + forma.size() as isize));
            }
            p
        }

        unsafe fn dealloc(&self, p: *mut u8, forma: std::alloc::Layout) {
            unsafe { std::alloc::System.dealloc(p, forma) };
            let _ = VIVOS.try_with(|v| v.set(v.get() - forma.size() as isize));
        }
    }

    #[global_allocator]
    static ASIGNADOR: Contador = Contador;

    /// Cede el control, como mucho unas miles de veces, hasta que `hecho()`
    /// sea verdad. En cada vuelta el runtime atiende las demás tareas y
    /// mira el reactor; con conexiones por 127.0.0.1, lo que el otro extremo
    /// ya escribió está disponible enseguida. Devuelve si se cumplió.
    pub async fn cede_hasta(mut hecho: impl FnMut() -> bool) -> bool {
        for _ in 0..5_000 {
            if hecho() {
                return true;
            }
            tokio::task::yield_now().await;
        }
        hecho()
    }
}

mod eco {
    use std::io;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
    use tokio::net::{TcpListener, TcpStream};
    use tokio_test::io::Builder;

    use muchas_tareas::eco::atiende;

    use crate::apoyo::conversa;

    #[tokio::test(start_paused = true)]
    async fn devuelve_cada_mensaje() {
        let guion = Builder::new().read(b"hola\n").write(b"hola\n").read(b"que tal\n").write(b"que tal\n").build();
        let total = conversa(atiende(guion)).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(total.expect("atiende no debería fallar"), 13, "debe devolver cuántos bytes devolvió: 5 + 8");
    }

    #[tokio::test(start_paused = true)]
    async fn sigue_hasta_que_el_cliente_cierra() {
        // Cinco lecturas seguidas antes de cerrar: un bucle, no una lectura.
        let mut guion = Builder::new();
        for trozo in [&b"uno "[..], b"dos ", b"tres ", b"cuatro ", b"cinco\n"] {
            guion.read(trozo).write(trozo);
        }
        let total = conversa(atiende(guion.build()))
            .await
            .unwrap_or_else(|e| panic!("{e}\nRecuerda: lee en un bucle hasta que read devuelva 0 (el cliente cerró)"));
        assert_eq!(total.expect("atiende no debería fallar"), 26, "4 + 4 + 5 + 7 + 6 bytes");
    }

    /// Una conexión que acepta como mucho 3 bytes en cada escritura, como
    /// un *socket* con el búfer de envío casi lleno.
    struct Tacana<S> {
        interior: S,
    }

    impl<S: AsyncRead + Unpin> AsyncRead for Tacana<S> {
        fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.interior).poll_read(cx, buf)
        }
    }

    impl<S: AsyncWrite + Unpin> AsyncWrite for Tacana<S> {
        fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
            let n = buf.len().min(3);
            Pin::new(&mut self.interior).poll_write(cx, &buf[..n])
        }
        fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.interior).poll_flush(cx)
        }
        fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.interior).poll_shutdown(cx)
        }
    }

    #[tokio::test(start_paused = true)]
    async fn escribe_entero_aunque_acepten_poco() {
        // Llegan 9 bytes de una vez, pero la conexión acepta 3 por escritura:
        // `write` a secas escribe 3 y se deja 6.
        let guion = Tacana { interior: Builder::new().read(b"holamundo").write(b"holamundo").build() };
        let total = conversa(atiende(guion)).await.unwrap_or_else(|e| {
            panic!("{e}\n`write` puede escribir menos de lo que le das y devuelve cuánto: usa `write_all`")
        });
        assert_eq!(
            total.expect("atiende no debería fallar"),
            9,
            "llegaron 9 bytes y se devolvieron los 9 (write_all): `atiende` debe devolver 9, los bytes devueltos, no \
             los que aceptó el último `write`"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn un_error_de_lectura_no_es_un_cierre() {
        let guion = Builder::new()
            .read(b"hola")
            .write(b"hola")
            .read_error(io::Error::from(io::ErrorKind::ConnectionReset))
            .build();
        let resultado = conversa(atiende(guion)).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            resultado.as_ref().map_err(|e| e.kind()),
            Err(io::ErrorKind::ConnectionReset),
            "si `read` falla, `atiende` debe devolver ese error (con `?`), no Ok como si el cliente \
             hubiera cerrado (obtuviste {resultado:?})"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn un_error_de_escritura_vuelve_a_quien_llama() {
        let guion = Builder::new().read(b"hola").write_error(io::Error::from(io::ErrorKind::BrokenPipe)).build();
        let resultado = conversa(atiende(guion)).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            resultado.as_ref().map_err(|e| e.kind()),
            Err(io::ErrorKind::BrokenPipe),
            "si el eco no se puede escribir (el cliente se fue), `atiende` debe devolver ese error (con `?`), \
             no seguir leyendo como si nada (obtuviste {resultado:?})"
        );
    }

    #[tokio::test]
    async fn hace_eco_por_una_conexion_de_verdad() {
        let escucha = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let direccion = escucha.local_addr().unwrap();
        let servidor = tokio::spawn(async move {
            let (conexion, _) = escucha.accept().await.unwrap();
            atiende(conexion).await
        });
        let cliente = TcpStream::connect(direccion).await.unwrap();
        let (mut lector, mut escritor) = cliente.into_split();
        let datos: Vec<u8> = (0..64 * 1024).map(|i| (i % 251) as u8).collect();
        let enviados = datos.clone();
        // Escribir y leer a la vez: si no, con mucho dato, los dos lados
        // podrían quedarse esperando a que el otro lea.
        let escribe = tokio::spawn(async move {
            let _ = escritor.write_all(&enviados).await;
            let _ = escritor.shutdown().await; // fin de lo que manda el cliente
        });
        let mut recibidos = Vec::new();
        let _ = lector.read_to_end(&mut recibidos).await;
        escribe.await.unwrap();
        assert!(
            recibidos == datos,
            "por una conexión de verdad, con 64 KiB, el eco devolvió {} bytes de {}",
            recibidos.len(),
            datos.len()
        );
        let total = servidor.await.expect("el servidor no debería fallar");
        assert_eq!(
            total.expect("atiende no debería fallar"),
            datos.len() as u64,
            "`atiende` debe devolver cuántos bytes devolvió: los 64 KiB (65 536) que mandó el cliente, ni uno menos"
        );
    }
}

mod acepta {
    use std::net::SocketAddr;

    use tokio::io::AsyncReadExt;
    use tokio::net::{TcpListener, TcpStream};
    use tokio::sync::oneshot;

    use muchas_tareas::acepta::sirve;

    use crate::apoyo::{bytes_vivos, cede_hasta};

    /// Espera, sin bloquear, a que cada cliente reciba su «hola\n».
    async fn saludados(clientes: &[TcpStream]) -> usize {
        let mut recibido = vec![Vec::new(); clientes.len()];
        let mut bufer = [0u8; 16];
        cede_hasta(|| {
            for (cliente, r) in clientes.iter().zip(recibido.iter_mut()) {
                if let Ok(n) = cliente.try_read(&mut bufer) {
                    r.extend_from_slice(&bufer[..n]);
                }
            }
            recibido.iter().all(|r| r.len() >= 5)
        })
        .await;
        recibido.iter().filter(|r| r.as_slice() == b"hola\n").count()
    }

    async fn abre() -> (TcpListener, SocketAddr) {
        let escucha = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let direccion = escucha.local_addr().unwrap();
        (escucha, direccion)
    }

    /// Si la tarea del servidor ya terminó con un pánico (un `todo!()`, por
    /// ejemplo), lo cuenta en vez de dejar que la prueba siga esperando.
    async fn sin_panico(servidor: &mut tokio::task::JoinHandle<std::io::Result<usize>>) {
        if servidor.is_finished()
            && let Err(e) = servidor.await
            && e.is_panic()
        {
            std::panic::resume_unwind(e.into_panic());
        }
    }

    #[tokio::test]
    async fn una_tarea_por_conexion() {
        let (escucha, direccion) = abre().await;
        let mut servidor = tokio::spawn(sirve(escucha, std::future::pending()));
        let mut clientes = Vec::new();
        for _ in 0..3 {
            clientes.push(TcpStream::connect(direccion).await.unwrap());
        }
        let n = saludados(&clientes).await;
        sin_panico(&mut servidor).await;
        assert_eq!(
            n, 3,
            "con 3 clientes conectados a la vez, solo {n} recibieron su saludo: lanza cada \
             conexión en su propia tarea (tokio::spawn) en lugar de atenderla dentro del bucle"
        );
        servidor.abort();
    }

    #[tokio::test]
    async fn para_con_la_senal_de_apagado() {
        let (escucha, direccion) = abre().await;
        let (apaga, senal) = oneshot::channel::<()>();
        let servidor = tokio::spawn(sirve(escucha, async move {
            let _ = senal.await;
        }));
        let clientes = vec![TcpStream::connect(direccion).await.unwrap(), TcpStream::connect(direccion).await.unwrap()];
        assert_eq!(saludados(&clientes).await, 2, "los dos clientes deben recibir su saludo");

        apaga.send(()).unwrap();
        let terminado = cede_hasta(|| servidor.is_finished()).await;
        assert!(
            terminado,
            "sirve debe terminar en cuanto llega la señal de apagado, sin esperar a otra \
             conexión: espera a la vez la conexión y la señal, con tokio::select!"
        );
        let aceptadas = servidor.await.unwrap().expect("sirve no debería fallar");
        assert_eq!(aceptadas, 2, "sirve debe devolver cuántas conexiones aceptó");
        assert!(
            TcpStream::connect(direccion).await.is_err(),
            "después del apagado, el puerto debe quedar cerrado: sirve debe soltar el TcpListener"
        );
        drop(clientes);
    }

    /// Un cliente que se conecta, recibe su saludo y cierra.
    async fn saluda_y_se_va(direccion: SocketAddr) {
        let mut cliente = TcpStream::connect(direccion).await.unwrap();
        let mut saludo = [0u8; 5];
        cliente.read_exact(&mut saludo).await.expect("el servidor debe saludar con «hola\\n»");
    }

    #[tokio::test]
    async fn no_guarda_nada_de_las_conexiones_que_terminan() {
        let (escucha, direccion) = abre().await;
        let (apaga, senal) = oneshot::channel::<()>();
        let mut servidor = tokio::spawn(sirve(escucha, async move {
            let _ = senal.await;
        }));
        let tareas = || tokio::runtime::Handle::current().metrics().num_alive_tasks();
        // Hasta que terminen las tareas de las conexiones: solo queda la del servidor.
        async fn calma(tareas: impl Fn() -> usize) {
            assert!(cede_hasta(|| tareas() == 1).await, "las tareas de las conexiones cerradas no terminaron");
        }
        for _ in 0..50 {
            saluda_y_se_va(direccion).await;
        }
        calma(tareas).await;
        sin_panico(&mut servidor).await;
        let antes = bytes_vivos();
        for _ in 0..300 {
            saluda_y_se_va(direccion).await;
        }
        calma(tareas).await;
        let crecido = bytes_vivos() - antes;
        assert!(
            crecido < 16 * 1024,
            "tras 300 conexiones que ya terminaron, el servidor tiene {crecido} bytes más que antes: guarda \
             algo de cada una (¿los JoinHandle en un Vec, o en un JoinSet que no vacías?). Un servidor que \
             no suelta lo de cada conexión hasta el apagado crece sin límite mientras sirve. Lanza la \
             tarea y suelta su JoinHandle"
        );
        apaga.send(()).unwrap();
        assert_eq!(
            servidor.await.unwrap().expect("sirve no debería fallar"),
            350,
            "`sirve` devuelve cuántas conexiones aceptó: 50 + 300 = 350. Si salen menos, alguna se perdió; si el \
             número no cuadra, cuentas algo que no es una conexión aceptada"
        );
    }

    #[tokio::test]
    async fn las_conexiones_abiertas_siguen_tras_el_apagado() {
        let (escucha, direccion) = abre().await;
        let (apaga, senal) = oneshot::channel::<()>();
        let mut servidor = tokio::spawn(sirve(escucha, async move {
            let _ = senal.await;
        }));
        let clientes = vec![TcpStream::connect(direccion).await.unwrap(), TcpStream::connect(direccion).await.unwrap()];
        let n = saludados(&clientes).await;
        sin_panico(&mut servidor).await;
        assert_eq!(n, 2, "los dos clientes deben recibir su saludo");
        apaga.send(()).unwrap();
        let terminado = cede_hasta(|| servidor.is_finished()).await;
        assert!(
            terminado,
            "con dos clientes todavía conectados, sirve debe volver en cuanto llega el apagado: \
             no esperes a que terminen sus tareas"
        );
        assert_eq!(
            servidor.await.unwrap().expect("sirve no debería fallar"),
            2,
            "`sirve` devuelve cuántas conexiones aceptó: las 2 que siguen abiertas también cuentan"
        );
        // Si la tarea de una conexión se cancela, su TcpStream se cierra y el
        // cliente lee 0 bytes (fin). Una conexión viva no tiene nada que leer.
        let mut bufer = [0u8; 8];
        let cerrada = cede_hasta(|| clientes.iter().any(|c| matches!(c.try_read(&mut bufer), Ok(0)))).await;
        assert!(
            !cerrada,
            "tras el apagado, una conexión que seguía abierta se cerró: las tareas de las conexiones \
             deben seguir con lo suyo. ¿Las lanzaste en un JoinSet? Al soltarlo las cancela todas"
        );
    }
}

mod lineas {
    use std::io;

    use tokio_test::io::Builder;

    use muchas_tareas::lineas::{Respuesta, atiende_lineas, responde};

    use crate::apoyo::conversa;

    #[test]
    fn el_protocolo_ya_esta_escrito() {
        assert_eq!(
            responde("ECO hola"),
            Respuesta::Linea("hola".into()),
            "`responde` ya viene escrito y no hace falta tocarlo: ECO devuelve el texto tal cual. Si falla, lo has \
             cambiado"
        );
        assert_eq!(
            responde("MAYUS hola"),
            Respuesta::Linea("HOLA".into()),
            "`responde` ya viene escrito y no hace falta tocarlo: MAYUS pasa el texto a mayúsculas. Si falla, lo has \
             cambiado"
        );
        assert_eq!(
            responde("SUMA 1 2 3"),
            Respuesta::Linea("6".into()),
            "`responde` ya viene escrito y no hace falta tocarlo: SUMA suma los números. Si falla, lo has cambiado"
        );
        assert_eq!(
            responde("ADIOS"),
            Respuesta::Adios,
            "`responde` ya viene escrito y no hace falta tocarlo: ADIOS es Respuesta::Adios. Si falla, lo has \
             cambiado"
        );
        assert!(
            matches!(responde("BAILA"), Respuesta::Linea(r) if r.starts_with("ERROR")),
            "`responde` ya viene escrito y no hace falta tocarlo: una orden desconocida da una línea que empieza por \
             «ERROR». Si falla, lo has cambiado"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn una_linea_cada_vez() {
        let guion = Builder::new().read(b"ECO hola\n").write(b"hola\n").read(b"SUMA 2 40\n").write(b"42\n").build();
        let contestadas = conversa(atiende_lineas(guion)).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(contestadas.expect("no debería fallar"), 2, "debe devolver cuántas líneas contestó");
    }

    #[tokio::test(start_paused = true)]
    async fn una_linea_partida_en_dos_lecturas() {
        let guion = Builder::new().read(b"MAYUS me").read(b"dia linea\n").write(b"MEDIA LINEA\n").build();
        let contestadas = conversa(atiende_lineas(guion)).await.unwrap_or_else(|e| {
            panic!("{e}\nUna lectura no es una línea: junta lo que llega hasta el '\\n' (BufReader::read_line)")
        });
        assert_eq!(
            contestadas.expect("no debería fallar"),
            1,
            "una sola línea, partida en dos lecturas: `atiende_lineas` debe contestar una vez y devolver 1"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn varias_lineas_en_una_lectura() {
        let guion = Builder::new()
            .read(b"ECO a\nMAYUS b\r\nSUMA 1 1\nEC")
            .write(b"a\nB\n2\n")
            .read(b"O fin\n")
            .write(b"fin\n")
            .build();
        let contestadas = conversa(atiende_lineas(guion)).await.unwrap_or_else(|e| {
            panic!("{e}\nUna lectura puede traer varias líneas y un trozo de la siguiente: contesta cada una")
        });
        assert_eq!(
            contestadas.expect("no debería fallar"),
            4,
            "cuatro líneas (tres en la primera lectura y la cuarta partida entre las dos): `atiende_lineas` debe \
             contestar las cuatro y devolver 4"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn los_espacios_son_del_texto() {
        let guion = Builder::new()
            .read(b"ECO  dos delante y uno detras \r\n")
            .write(b" dos delante y uno detras \n")
            .read(b"ECO\ttab\n")
            .write(b"ERROR orden desconocida: ECO\ttab\n")
            .build();
        let contestadas = conversa(atiende_lineas(guion)).await.unwrap_or_else(|e| {
            panic!(
                "{e}\nQuita solo el final de línea (`\\n` y, si lo hay, `\\r`): `trim()` se lleva también \
                 los espacios y tabuladores, que son parte de la orden"
            )
        });
        assert_eq!(
            contestadas.expect("no debería fallar"),
            2,
            "dos líneas contestadas: `atiende_lineas` debe devolver 2"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn un_error_de_lectura_no_es_un_cierre() {
        let guion = Builder::new()
            .read(b"ECO uno\n")
            .write(b"uno\n")
            .read_error(io::Error::from(io::ErrorKind::ConnectionReset))
            .build();
        let resultado = conversa(atiende_lineas(guion)).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            resultado.as_ref().map_err(|e| e.kind()),
            Err(io::ErrorKind::ConnectionReset),
            "si la lectura falla, `atiende_lineas` debe devolver el error, no Ok (obtuviste {resultado:?})"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn adios_contesta_y_cierra() {
        // Lo que venga después de ADIOS no se contesta.
        let guion =
            Builder::new().read(b"ECO uno\n").write(b"uno\n").read(b"ADIOS\nECO dos\n").write(b"ADIOS\n").build();
        let contestadas = conversa(atiende_lineas(guion)).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            contestadas.expect("después de ADIOS no hay que escribir nada más"),
            2,
            "ADIOS también cuenta como línea contestada"
        );
    }
}
