//! Pruebas del capítulo 18. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/18-hilo-por-nucleo`) y contra la solución
//! (`solutions/18-hilo-por-nucleo`). Un módulo por ejercicio.

/// Ejercicio 1: `Lector`, líneas con un búfer propio que sobrevive a la
/// cancelación.
///
/// La fuente de estas pruebas es de imitación: cada lectura se queda en
/// vuelo hasta que la prueba decide qué trae (`completa`, `completa_fin`,
/// `completa_error`), igual que una lectura de `io_uring` se queda en el
/// kernel hasta que llegan datos. La prueba conduce `linea()` a mano con una
/// tarea de imitación (`tokio_test::task::spawn`) que cuenta los
/// despertares, así que nada espera de verdad y nada se puede colgar.
///
/// Lo que se comprueba, una propiedad por prueba:
/// - una línea, y el final limpio de los datos (`Ok(None)`);
/// - una lectura que trae varias líneas: las siguientes salen del búfer, sin
///   enviar otra lectura;
/// - una línea que llega en varios trozos;
/// - **cancelar `linea()` con una lectura en vuelo no pierde nada**: la
///   siguiente llamada retoma la misma lectura, no envía otra, y los datos
///   que trajo llegan;
/// - el búfer es siempre el mismo (misma dirección, misma capacidad): se
///   presta y se recupera, no se reserva otro en cada lectura;
/// - un error de la fuente llega con su tipo, y el búfer vuelve con él;
/// - datos que acaban a media línea: `UnexpectedEof`; después del final, no
///   se envían más lecturas;
/// - una línea que no cabe en el búfer: `InvalidData`, no un final falso; y
///   una que lo llena justo, con su `\n` en el último byte, sí cabe;
/// - las líneas ya devueltas dejan su sitio: muchas líneas que llegan a
///   caballo entre lecturas caben en un búfer pequeño;
/// - un error a media línea no tira lo que ya había llegado;
/// - mientras la lectura está en vuelo, `linea()` duerme: sin despertares y
///   sin lecturas nuevas hasta que la lectura termina.
mod lectura {
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::future::Future;
    use std::io;
    use std::pin::Pin;
    use std::rc::Rc;
    use std::task::{Context, Poll, Waker};

    use por_nucleo::finalizacion::Fuente;
    use por_nucleo::lectura::Lector;
    use tokio_test::task;
    use tokio_test::{assert_pending, assert_ready};

    /// Una lectura que el «kernel» de imitación tiene en vuelo.
    #[derive(Default)]
    struct Operacion {
        bufer: Option<Vec<u8>>,
        resultado: Option<io::Result<usize>>,
        waker: Option<Waker>,
        soltada: bool,
    }

    #[derive(Default)]
    struct Estado {
        /// Cada lectura enviada: dirección y capacidad del búfer prestado.
        envios: Vec<(usize, usize)>,
        /// Lecturas en vuelo, de la más antigua a la más nueva.
        en_vuelo: VecDeque<Rc<RefCell<Operacion>>>,
        /// Bytes que el kernel escribió en búferes de lecturas ya soltadas.
        perdidos: usize,
    }

    #[derive(Clone, Default)]
    struct FuenteDePrueba(Rc<RefCell<Estado>>);

    struct LecturaDePrueba(Rc<RefCell<Operacion>>);

    impl Future for LecturaDePrueba {
        type Output = (io::Result<usize>, Vec<u8>);
        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            let mut op = self.0.borrow_mut();
            match op.resultado.take() {
                Some(r) => Poll::Ready((r, op.bufer.take().expect("el búfer vuelve una sola vez"))),
                None => {
                    op.waker = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        }
    }

    impl Drop for LecturaDePrueba {
        fn drop(&mut self) {
            self.0.borrow_mut().soltada = true;
        }
    }

    impl Fuente for FuenteDePrueba {
        type Lectura = LecturaDePrueba;
        fn leer(&mut self, bufer: Vec<u8>) -> LecturaDePrueba {
            let mut e = self.0.borrow_mut();
            e.envios.push((bufer.as_ptr() as usize, bufer.capacity()));
            let sin_sitio = bufer.len() == bufer.capacity();
            let op = Rc::new(RefCell::new(Operacion { bufer: Some(bufer), ..Default::default() }));
            if sin_sitio {
                // Como el kernel: una lectura de 0 bytes termina enseguida con 0.
                op.borrow_mut().resultado = Some(Ok(0));
            } else {
                e.en_vuelo.push_back(op.clone());
            }
            LecturaDePrueba(op)
        }
    }

    impl FuenteDePrueba {
        fn envios(&self) -> usize {
            self.0.borrow().envios.len()
        }

        fn termina(&self, que: &str, f: impl FnOnce(&mut Vec<u8>) -> io::Result<usize>) {
            let op = self.0.borrow_mut().en_vuelo.pop_front().unwrap_or_else(|| {
                panic!("la prueba quería terminar una lectura ({que}) y no hay ninguna en vuelo: ¿no la enviaste?")
            });
            let mut op = op.borrow_mut();
            let mut bufer = op.bufer.take().expect("la lectura en vuelo tiene el búfer");
            let r = f(&mut bufer);
            if op.soltada {
                // El kernel escribe igual, pero ya nadie recogerá estos bytes.
                self.0.borrow_mut().perdidos += *r.as_ref().unwrap_or(&0);
            }
            op.bufer = Some(bufer);
            op.resultado = Some(r);
            if let Some(w) = op.waker.take() {
                w.wake();
            }
        }

        /// Termina la lectura más antigua con `datos` (lo que quepa).
        fn completa(&self, datos: &[u8]) {
            self.termina("con datos", |b| {
                let n = datos.len().min(b.capacity() - b.len());
                b.extend_from_slice(&datos[..n]);
                Ok(n)
            });
        }

        fn completa_fin(&self) {
            self.termina("con el final de los datos", |_| Ok(0));
        }

        fn completa_error(&self, tipo: io::ErrorKind) {
            self.termina("con un error", |_| Err(io::Error::new(tipo, "error de prueba")));
        }

        fn perdidos(&self) -> usize {
            self.0.borrow().perdidos
        }

        fn direcciones(&self) -> Vec<(usize, usize)> {
            self.0.borrow().envios.clone()
        }
    }

    fn nuevo(capacidad: usize) -> (Lector<FuenteDePrueba>, FuenteDePrueba) {
        let fuente = FuenteDePrueba::default();
        (Lector::new(fuente.clone(), capacidad), fuente)
    }

    /// `linea()` debe responder ya, sin esperar ninguna lectura.
    fn ya(lector: &mut Lector<FuenteDePrueba>, que: &str) -> io::Result<Option<Vec<u8>>> {
        let mut t = task::spawn(lector.linea());
        match t.poll() {
            Poll::Ready(r) => r,
            Poll::Pending => panic!("linea() se quedó esperando y debía responder ya: {que}"),
        }
    }

    fn texto(r: io::Result<Option<Vec<u8>>>) -> Option<String> {
        r.expect("linea() devolvió un error").map(|l| String::from_utf8(l).expect("utf-8"))
    }

    #[test]
    fn una_linea_y_el_final() {
        let (mut lector, fuente) = nuevo(64);
        {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll(), "sin datos todavía, linea() debe esperar");
            fuente.completa(b"hola\n");
            assert!(t.is_woken(), "terminó la lectura y linea() no se despertó");
            assert_eq!(
                texto(assert_ready!(t.poll())),
                Some("hola".into()),
                "llegó «hola\\n»: linea() devuelve la línea sin su \\n"
            );
        }
        {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
            fuente.completa_fin();
            assert_eq!(texto(assert_ready!(t.poll())), None, "los datos acabaron tras una línea entera: Ok(None)");
        }
    }

    #[test]
    fn varias_lineas_en_una_lectura() {
        let (mut lector, fuente) = nuevo(64);
        {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
            fuente.completa(b"uno\ndos\ntres\ncua");
            assert_eq!(
                texto(assert_ready!(t.poll())),
                Some("uno".into()),
                "la lectura trajo «uno\\ndos\\ntres\\ncua»: la primera línea es «uno», sin su \\n"
            );
        }
        assert_eq!(
            texto(ya(&mut lector, "«dos» ya estaba en el búfer")),
            Some("dos".into()),
            "la segunda línea, «dos», sale del búfer sin leer más"
        );
        assert_eq!(
            texto(ya(&mut lector, "«tres» ya estaba en el búfer")),
            Some("tres".into()),
            "la tercera línea, «tres», sale del búfer sin leer más"
        );
        assert_eq!(fuente.envios(), 1, "las líneas que ya estaban en el búfer no necesitan otra lectura");
        let mut t = task::spawn(lector.linea());
        assert_pending!(t.poll());
        fuente.completa(b"tro\n");
        assert_eq!(texto(assert_ready!(t.poll())), Some("cuatro".into()), "el trozo «cua» se perdió");
    }

    #[test]
    fn una_linea_en_varios_trozos() {
        let (mut lector, fuente) = nuevo(64);
        let mut t = task::spawn(lector.linea());
        assert_pending!(t.poll());
        for trozo in [&b"ab"[..], b"c", b"de"] {
            fuente.completa(trozo);
            assert_pending!(t.poll(), "todavía no hay un \\n: linea() debe seguir esperando");
        }
        fuente.completa(b"f\n");
        assert_eq!(
            texto(assert_ready!(t.poll())),
            Some("abcdef".into()),
            "los trozos «ab», «c», «de» y «f\\n» forman una sola línea: «abcdef», entera y sin el \\n"
        );
        assert_eq!(
            fuente.envios(),
            4,
            "cuatro trozos, cuatro lecturas: cada una se envía cuando termina la anterior, y hasta que llega el \\n"
        );
    }

    #[test]
    fn cancelar_no_pierde_nada() {
        let (mut lector, fuente) = nuevo(64);
        {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
        } // cancelada: su future se suelta con la lectura en vuelo
        assert_eq!(fuente.envios(), 1, "el primer sondeo envía una lectura, y cancelar no envía otra");
        {
            // Cancelada otra vez, antes de que lleguen los datos.
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
        }
        assert_eq!(
            fuente.envios(),
            1,
            "tras cancelar, linea() envió otra lectura: la primera sigue en vuelo y el sistema escribirá en su búfer"
        );
        fuente.completa(b"dato\n");
        assert_eq!(fuente.perdidos(), 0, "la lectura cancelada se soltó y sus datos se perdieron");
        assert_eq!(
            texto(ya(&mut lector, "la lectura en vuelo ya terminó")),
            Some("dato".into()),
            "la lectura que estaba en vuelo al cancelar trajo «dato\\n»: la siguiente llamada la recoge y devuelve \
             «dato»"
        );
        assert_eq!(
            fuente.envios(),
            1,
            "recoger la lectura que ya estaba en vuelo no necesita enviar otra: una lectura en total"
        );
    }

    #[test]
    fn cancelar_a_media_linea_tampoco() {
        let (mut lector, fuente) = nuevo(64);
        {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
            fuente.completa(b"me");
            assert_pending!(t.poll());
        } // cancelada con «me» en el búfer y otra lectura en vuelo
        fuente.completa(b"dio\nfin\n");
        assert_eq!(
            texto(ya(&mut lector, "los datos ya llegaron")),
            Some("medio".into()),
            "«me» llegó antes de cancelar y «dio\\n» en la lectura que seguía en vuelo: juntos son «medio»"
        );
        assert_eq!(
            texto(ya(&mut lector, "«fin» ya estaba en el búfer")),
            Some("fin".into()),
            "«fin» llegó en la misma lectura: sale del búfer sin leer más"
        );
        assert_eq!(
            fuente.perdidos(),
            0,
            "la lectura en vuelo al cancelar se soltó y el kernel escribió en un búfer que ya nadie tenía: esos datos \
             se perdieron. Guarda la lectura en vuelo en el lector, no en el future de linea()"
        );
    }

    #[test]
    fn el_bufer_es_siempre_el_mismo() {
        let (mut lector, fuente) = nuevo(32);
        for i in 0..20 {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
            fuente.completa(format!("linea {i}\n").as_bytes());
            assert_eq!(
                texto(assert_ready!(t.poll())),
                Some(format!("linea {i}")),
                "llegó «linea {i}\\n»: linea() devuelve la línea sin su \\n"
            );
        }
        let envios = fuente.direcciones();
        assert_eq!(envios.len(), 20, "20 líneas, cada una en su lectura: 20 lecturas enviadas");
        assert!(
            envios.iter().all(|&(_, capacidad)| capacidad == 32),
            "el búfer prestado debe tener la capacidad pedida (32): {envios:?}"
        );
        assert!(
            envios.iter().all(|&e| e.0 == envios[0].0),
            "cada lectura recibió un búfer distinto: el búfer se presta y se recupera, no se reserva otro"
        );
    }

    #[test]
    fn un_error_llega_y_el_bufer_sobrevive() {
        let (mut lector, fuente) = nuevo(64);
        {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
            fuente.completa_error(io::ErrorKind::ConnectionReset);
            let e = assert_ready!(t.poll()).expect_err("la lectura falló: linea() debe devolver el error");
            assert_eq!(e.kind(), io::ErrorKind::ConnectionReset, "el error debe llegar con su tipo");
        }
        let mut t = task::spawn(lector.linea());
        assert_pending!(t.poll());
        fuente.completa(b"sigue\n");
        assert_eq!(
            texto(assert_ready!(t.poll())),
            Some("sigue".into()),
            "tras el error, el lector sigue sirviendo: la lectura siguiente trae «sigue»"
        );
        let envios = fuente.direcciones();
        assert_eq!(envios[0], envios[1], "tras el error, el búfer debe ser el mismo que volvió con él");
    }

    #[test]
    fn datos_a_media_linea_y_nada_mas_despues_del_final() {
        let (mut lector, fuente) = nuevo(64);
        {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
            fuente.completa(b"a medias");
            assert_pending!(t.poll());
            fuente.completa_fin();
            let e = assert_ready!(t.poll()).expect_err("los datos acabaron a media línea: es un error");
            assert_eq!(
                e.kind(),
                io::ErrorKind::UnexpectedEof,
                "los datos acabaron a media línea («a medias», sin \\n): el error es UnexpectedEof, no un final \
                 limpio"
            );
        }
        let (mut lector, fuente) = nuevo(64);
        {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
            fuente.completa_fin();
            assert_eq!(
                texto(assert_ready!(t.poll())),
                None,
                "los datos acabaron sin nada a medias: es el final limpio, Ok(None)"
            );
        }
        let antes = fuente.envios();
        assert_eq!(
            texto(ya(&mut lector, "después del final no hay nada que esperar")),
            None,
            "tras el final, linea() sigue dando Ok(None), al momento"
        );
        assert_eq!(fuente.envios(), antes, "después del final, linea() no debe enviar más lecturas");
    }

    #[test]
    fn una_linea_que_no_cabe() {
        let (mut lector, fuente) = nuevo(8);
        let mut t = task::spawn(lector.linea());
        assert_pending!(t.poll());
        fuente.completa(b"0123456789\n");
        let e = match t.poll() {
            Poll::Ready(r) => r.expect_err("una línea de 10 bytes no cabe en un búfer de 8"),
            Poll::Pending => panic!("el búfer está lleno y sin \\n: linea() debe decir que la línea no cabe"),
        };
        assert_eq!(e.kind(), io::ErrorKind::InvalidData, "una línea demasiado larga no es el final de los datos");
    }

    #[test]
    fn una_linea_que_llena_el_bufer_justo() {
        // Capacidad 8: 7 bytes y su \n llenan el búfer, y aun así es una línea entera.
        let (mut lector, fuente) = nuevo(8);
        for (datos, linea) in [(&b"1234567\n"[..], "1234567"), (b"123456\n", "123456"), (b"abcdefg\n", "abcdefg")] {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
            fuente.completa(datos);
            match t.poll() {
                Poll::Ready(r) => assert_eq!(
                    texto(r),
                    Some(linea.into()),
                    "«{linea}\\n» ocupa {} de los 8 bytes del búfer: cabe",
                    datos.len()
                ),
                Poll::Pending => panic!("«{linea}\\n» ya está entera en el búfer y linea() sigue esperando"),
            }
        }
    }

    #[test]
    fn muchas_lineas_a_caballo_entre_lecturas() {
        // 40 líneas de 5 bytes («l000\n»...) en un búfer de 16, en trozos de 7: casi siempre
        // queda media línea en el búfer. Las líneas ya devueltas tienen que dejar su sitio.
        let (mut lector, fuente) = nuevo(16);
        let datos: Vec<u8> = (0..40).flat_map(|i| format!("l{i:03}\n").into_bytes()).collect();
        let mut trozos = datos.chunks(7);
        let mut lineas = Vec::new();
        while lineas.len() < 40 {
            let mut t = task::spawn(lector.linea());
            loop {
                match t.poll() {
                    Poll::Ready(r) => {
                        let linea =
                            texto(r).unwrap_or_else(|| panic!("tras {} líneas, linea() dio Ok(None)", lineas.len()));
                        lineas.push(linea);
                        break;
                    }
                    Poll::Pending => match trozos.next() {
                        Some(trozo) => fuente.completa(trozo),
                        None => panic!("se acabaron los datos y solo salieron {} de 40 líneas", lineas.len()),
                    },
                }
            }
        }
        let esperadas: Vec<String> = (0..40).map(|i| format!("l{i:03}")).collect();
        assert_eq!(
            lineas, esperadas,
            "con un búfer de 16 bytes, 40 líneas de 5: lo ya devuelto tiene que dejar sitio (drain), o el búfer se \
             llena de líneas viejas"
        );
    }

    #[test]
    fn un_error_a_media_linea_no_tira_lo_leido() {
        let (mut lector, fuente) = nuevo(64);
        {
            let mut t = task::spawn(lector.linea());
            assert_pending!(t.poll());
            fuente.completa(b"me");
            assert_pending!(t.poll());
            fuente.completa_error(io::ErrorKind::TimedOut);
            let e = assert_ready!(t.poll()).expect_err("la lectura falló: linea() debe devolver el error");
            assert_eq!(
                e.kind(),
                io::ErrorKind::TimedOut,
                "la lectura falló con TimedOut: linea() devuelve ese error con su tipo"
            );
        }
        let mut t = task::spawn(lector.linea());
        assert_pending!(t.poll());
        fuente.completa(b"dio\n");
        assert_eq!(
            texto(assert_ready!(t.poll())),
            Some("medio".into()),
            "«me» llegó antes del error: el error no tira lo que ya estaba en el búfer"
        );
    }

    #[test]
    fn espera_dormida() {
        let (mut lector, fuente) = nuevo(64);
        let mut t = task::spawn(lector.linea());
        assert_pending!(t.poll());
        for _ in 0..5 {
            assert!(!t.is_woken(), "nada ha terminado y linea() pidió que la despertaran: eso es sondear");
            assert_pending!(t.poll());
        }
        assert_eq!(fuente.envios(), 1, "sondear otra vez no debe enviar otra lectura");
        fuente.completa(b"ya\n");
        assert!(t.is_woken(), "terminó la lectura y linea() no se despertó");
        assert_eq!(
            texto(assert_ready!(t.poll())),
            Some("ya".into()),
            "llegó «ya\\n»: linea() devuelve la línea sin su \\n"
        );
    }
}

/// Ejercicio 2: `escuchas` y `acepta_pendientes`, repartir conexiones con
/// `SO_REUSEPORT`.
///
/// Lo que se comprueba:
/// - todas las escuchas comparten puerto, con el puerto 0 y con uno dado;
/// - cada una tiene `SO_REUSEPORT` y es no bloqueante (se mira con
///   `getsockopt` y `fcntl`, sin aceptar nada: una escucha bloqueante
///   colgaría la prueba);
/// - cero escuchas es `InvalidInput`;
/// - el kernel reparte: con 64 conexiones y dos escuchas, cada una acepta
///   alguna y entre las dos, todas, cada una una sola vez;
/// - `acepta_pendientes` vacía la cola de cada escucha en una sola llamada,
///   sin esperar a que lleguen más;
/// - con una dirección IPv6, las escuchas son IPv6 (y reparten igual);
/// - con una escucha de imitación (la costura `Escucha`), los errores que un
///   *socket* no da a demanda: `Interrupted` se reintenta, y cualquier otro
///   error que no sea `WouldBlock` se devuelve sin tocar las escuchas que
///   faltan.
mod reparto {
    use std::io;
    use std::net::{SocketAddr, TcpListener, TcpStream};
    use std::os::fd::AsRawFd;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use std::cell::{Cell, RefCell};
    use std::collections::VecDeque;

    use por_nucleo::reparto::{Escucha, acepta_pendientes, escuchas};

    fn local() -> SocketAddr {
        "127.0.0.1:0".parse().unwrap()
    }

    fn no_bloquea(e: &TcpListener) -> bool {
        // SAFETY: F_GETFL solo lee las banderas de un descriptor abierto.
        let banderas = unsafe { libc::fcntl(e.as_raw_fd(), libc::F_GETFL) };
        banderas >= 0 && banderas & libc::O_NONBLOCK != 0
    }

    fn reuseport(e: &TcpListener) -> bool {
        let mut v: libc::c_int = 0;
        let mut largo = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
        // SAFETY: `v` y `largo` son nuestros y del tamaño que se indica.
        let r = unsafe {
            libc::getsockopt(
                e.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_REUSEPORT,
                (&mut v as *mut libc::c_int).cast(),
                &mut largo,
            )
        };
        r == 0 && v != 0
    }

    /// Una escucha de imitación: cada `acepta` da lo siguiente de su guion
    /// (y, acabado el guion, `WouldBlock`), y cuenta cuántas veces la llamaron.
    struct DeImitacion {
        guion: RefCell<VecDeque<io::Result<()>>>,
        llamadas: Cell<usize>,
    }

    impl DeImitacion {
        fn new(guion: Vec<io::Result<()>>) -> Self {
            DeImitacion { guion: RefCell::new(guion.into()), llamadas: Cell::new(0) }
        }
    }

    impl Escucha for DeImitacion {
        fn acepta(&self) -> io::Result<()> {
            self.llamadas.set(self.llamadas.get() + 1);
            self.guion.borrow_mut().pop_front().unwrap_or_else(|| Err(io::ErrorKind::WouldBlock.into()))
        }
    }

    fn error(tipo: io::ErrorKind) -> io::Result<()> {
        Err(tipo.into())
    }

    #[test]
    fn todas_en_el_mismo_puerto() {
        let v = escuchas(3, local()).expect("escuchas(3, 127.0.0.1:0) falló");
        assert_eq!(v.len(), 3, "se pidieron 3 escuchas: `escuchas` debe devolver 3");
        let puerto = v[0].local_addr().unwrap().port();
        assert_ne!(
            puerto, 0,
            "con el puerto 0 el sistema elige uno libre: la primera escucha tiene que estar en ese puerto, no en el 0 \
             (mira local_addr() tras el bind)"
        );
        for e in &v {
            assert_eq!(e.local_addr().unwrap().port(), puerto, "cada escucha está en un puerto distinto");
        }
    }

    #[test]
    fn con_un_puerto_dado() {
        let libre = TcpListener::bind(local()).unwrap().local_addr().unwrap();
        let v = escuchas(2, libre).expect("escuchas(2, puerto libre) falló");
        for e in &v {
            assert_eq!(
                e.local_addr().unwrap(),
                libre,
                "cada escucha tiene que estar en la dirección y el puerto que se le dieron, {libre}"
            );
        }
    }

    #[test]
    fn reuseport_y_no_bloqueantes() {
        let v = escuchas(2, local()).unwrap();
        for (i, e) in v.iter().enumerate() {
            assert!(reuseport(e), "la escucha {i} no tiene SO_REUSEPORT");
            assert!(no_bloquea(e), "la escucha {i} es bloqueante: un runtime no puede usarla así");
        }
    }

    #[test]
    fn tambien_en_ipv6() {
        let v6: SocketAddr = "[::1]:0".parse().unwrap();
        if TcpListener::bind(v6).is_err() {
            eprintln!("esta máquina no tiene IPv6 en la interfaz de bucle local (::1): la prueba no se hace");
            return;
        }
        let v = escuchas(2, v6).expect("escuchas(2, [::1]:0) falló: el dominio del socket sale de la dirección");
        let destino = v[0].local_addr().unwrap();
        assert!(destino.is_ipv6() && destino.port() != 0, "la escucha no está en ::1: {destino}");
        assert_eq!(v[1].local_addr().unwrap(), destino, "las dos escuchas IPv6 comparten dirección y puerto");
        assert!(v.iter().all(|e| reuseport(e) && no_bloquea(e)), "también en IPv6: SO_REUSEPORT y no bloqueantes");
        let clientes: Vec<TcpStream> = (0..8).map(|_| TcpStream::connect(destino).unwrap()).collect();
        let mut total = 0;
        let limite = Instant::now() + Duration::from_secs(2);
        while total < 8 && Instant::now() < limite {
            total += acepta_pendientes(&v).expect("acepta_pendientes falló").iter().sum::<usize>();
        }
        drop(clientes);
        assert_eq!(total, 8, "8 conexiones por IPv6, y se aceptaron {total}");
    }

    #[test]
    fn una_senal_no_corta_el_reparto() {
        // La primera escucha: una conexión, una señal que corta accept (EINTR), otra conexión.
        let a = DeImitacion::new(vec![Ok(()), error(io::ErrorKind::Interrupted), Ok(())]);
        let b = DeImitacion::new(vec![Ok(())]);
        let cuentas = acepta_pendientes(&[a, b]).expect(
            "Interrupted no es un fallo: la llamada se cortó por una señal y se vuelve a intentar, no se devuelve",
        );
        assert_eq!(
            cuentas,
            vec![2, 1],
            "tras Interrupted, se reintenta accept en la misma escucha; solo WouldBlock acaba su cola"
        );
    }

    #[test]
    fn otro_error_se_devuelve_y_para() {
        // Sin descriptores libres (EMFILE) a la segunda conexión: un error de verdad.
        let a = DeImitacion::new(vec![Ok(()), Err(io::Error::from_raw_os_error(libc::EMFILE)), Ok(())]);
        let b = DeImitacion::new(vec![Ok(()), Ok(())]);
        let escuchas = [a, b];
        match acepta_pendientes(&escuchas) {
            Ok(cuentas) => panic!(
                "accept falló con EMFILE (sin descriptores libres) y acepta_pendientes dio Ok({cuentas:?}): un error \
                 que no es WouldBlock ni Interrupted se devuelve, no se toma por el final de la cola"
            ),
            Err(e) => assert_eq!(e.raw_os_error(), Some(libc::EMFILE), "el error tiene que llegar tal cual: {e:?}"),
        }
        assert_eq!(escuchas[0].llamadas.get(), 2, "tras el error, no se sigue aceptando de esa escucha");
        assert_eq!(
            escuchas[1].llamadas.get(),
            0,
            "tras el error, no se toca la escucha siguiente: se devuelve enseguida"
        );
    }

    #[test]
    fn cero_escuchas_es_un_error() {
        let e = escuchas(0, local()).expect_err("cero escuchas no pueden atender a nadie: debe ser un error");
        assert_eq!(
            e.kind(),
            io::ErrorKind::InvalidInput,
            "cero escuchas es un error InvalidInput, no una lista vacía ni un pánico"
        );
    }

    #[test]
    fn el_kernel_reparte_las_conexiones() {
        let v = escuchas(2, local()).unwrap();
        assert!(v.iter().all(no_bloquea), "las escuchas deben ser no bloqueantes (si no, esta prueba se colgaría)");
        let destino = v[0].local_addr().unwrap();
        let clientes: Vec<TcpStream> = (0..64).map(|_| TcpStream::connect(destino).unwrap()).collect();
        // acepta_pendientes en otro hilo: si esperase, la prueba falla en vez de colgarse.
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut total = vec![0usize; 2];
            let limite = Instant::now() + Duration::from_secs(2);
            let mut primera = true;
            while total.iter().sum::<usize>() < 64 && Instant::now() < limite {
                match acepta_pendientes(&v) {
                    Ok(c) => {
                        assert_eq!(c.len(), 2, "una cuenta por escucha");
                        // Las conexiones ya estaban en cola: una sola llamada se lleva más de una por escucha.
                        if primera && c.iter().sum::<usize>() <= 2 {
                            let _ = tx.send(Ok(c));
                            return;
                        }
                        primera = false;
                        for (t, n) in total.iter_mut().zip(c) {
                            *t += n;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
            let _ = tx.send(Ok(total));
        });
        let total = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("acepta_pendientes se quedó esperando: debe aceptar sin esperar y parar en WouldBlock")
            .expect("acepta_pendientes devolvió un error");
        drop(clientes);
        assert_eq!(
            total.iter().sum::<usize>(),
            64,
            "había 64 conexiones en cola y acepta_pendientes se llevó {total:?}: debe vaciar cada cola hasta WouldBlock"
        );
        assert!(total.iter().all(|&n| n > 0), "el kernel reparte entre las dos escuchas; salió {total:?}");
    }
}

/// Ejercicio 3: `permitidos`, `fija` y `lanza_fijados`, hilos fijados a sus
/// núcleos. Solo en Linux.
///
/// Cada prueba trabaja en hilos propios, y cuando necesita menos núcleos los
/// quita solo a su hilo. Lo que se comprueba:
/// - `permitidos()` es la máscara de este hilo, no `0..N`;
/// - `fija` fija solo al hilo que llama (el pid 0 es «este hilo»; el pid del
///   proceso es otro hilo);
/// - un núcleo imposible es `InvalidInput`, sin pánico, por grande que sea;
/// - `lanza_fijados` reparte los núcleos permitidos por turnos, en orden, fija
///   cada hilo antes de llamar a `f`, y no toca al que llama;
/// - las máscaras llegan hasta el núcleo 1023, no hasta el 63: se prueba con
///   máscaras hechas a mano (esta máquina no tiene tantos núcleos);
/// - un hilo que no puede fijarse devuelve el error sin llamar a `f`, y una
///   lista de núcleos vacía es `InvalidInput` (con `lanza_fijados_en`, que
///   recibe los núcleos: la costura para pedir uno que no existe).
#[cfg(target_os = "linux")]
mod fijar {
    use std::io;

    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use por_nucleo::fijar::{fija, lanza_fijados, lanza_fijados_en, mascara_de, nucleos_de, permitidos};

    fn mascara() -> Vec<usize> {
        // SAFETY: como en la solución: máscara propia, pid 0.
        unsafe {
            let mut m: libc::cpu_set_t = std::mem::zeroed();
            assert_eq!(
                libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut m),
                0,
                "sched_getaffinity falló en la prueba (no en tu código): {}",
                io::Error::last_os_error()
            );
            (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &m)).collect()
        }
    }

    fn restringe(nucleos: &[usize]) {
        // SAFETY: máscara propia con índices válidos; pid 0 = este hilo.
        unsafe {
            let mut m: libc::cpu_set_t = std::mem::zeroed();
            for &c in nucleos {
                libc::CPU_SET(c, &mut m);
            }
            assert_eq!(
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &m),
                0,
                "sched_setaffinity falló en la prueba (no en tu código): {}",
                io::Error::last_os_error()
            );
        }
    }

    fn en_un_hilo<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        match std::thread::spawn(f).join() {
            Ok(v) => v,
            Err(p) => std::panic::resume_unwind(p),
        }
    }

    #[test]
    fn las_mascaras_pasan_de_64() {
        let nucleos = [0, 3, 63, 64, 65, 127, 128, 1000, 1023];
        // SAFETY: máscara propia, índices por debajo de CPU_SETSIZE (1024).
        let hecha = unsafe {
            let mut m: libc::cpu_set_t = std::mem::zeroed();
            for &c in &nucleos {
                libc::CPU_SET(c, &mut m);
            }
            m
        };
        assert_eq!(
            nucleos_de(&hecha),
            nucleos,
            "una máscara cpu_set_t tiene sitio para 1024 núcleos: del 64 en adelante también cuentan"
        );
        for nucleo in [0, 63, 64, 1023] {
            let m = mascara_de(nucleo).unwrap_or_else(|e| panic!("mascara_de({nucleo}) falló: {e}"));
            assert_eq!(nucleos_de(&m), vec![nucleo], "mascara_de({nucleo}) debe marcar ese núcleo y ninguno más");
        }
        for nucleo in [1024, 100_000, usize::MAX] {
            let e = mascara_de(nucleo).expect_err("ese núcleo no cabe en la máscara: debe ser un error");
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "mascara_de({nucleo})");
        }
    }

    #[test]
    fn un_hilo_que_no_puede_fijarse_no_llama_a_f() {
        let ultimo = *mascara().last().unwrap();
        let llamadas = Arc::new(AtomicUsize::new(0));
        let cuenta = llamadas.clone();
        // El segundo núcleo no existe en ninguna máquina: ese hilo no puede fijarse.
        let hilos = lanza_fijados_en(&[ultimo, 100_000], 4, move |_, nucleo| {
            cuenta.fetch_add(1, Ordering::SeqCst);
            (nucleo, mascara())
        })
        .expect("lanza_fijados_en falló");
        let resultados: Vec<io::Result<(usize, Vec<usize>)>> =
            hilos.into_iter().map(|h| h.join().expect("un hilo entró en pánico: un error no es un pánico")).collect();
        for (k, r) in resultados.iter().enumerate() {
            match (k % 2, r) {
                (0, Ok((nucleo, m))) => assert_eq!(
                    (*nucleo, m.clone()),
                    (ultimo, vec![ultimo]),
                    "el hilo {k} va al núcleo {ultimo} y tiene que estar fijado a él, y solo a él, cuando llama a f"
                ),
                (1, Err(e)) => assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "el hilo {k}"),
                (_, otro) => panic!("el hilo {k} (núcleo {}) dio {otro:?}", [ultimo, 100_000][k % 2]),
            }
        }
        assert_eq!(
            llamadas.load(Ordering::SeqCst),
            2,
            "f solo se llama en los hilos que se fijaron: un hilo que no pudo fijarse devuelve el error sin trabajar \
             en un núcleo cualquiera"
        );
        let e = lanza_fijados_en(&[], 1, |_, _| ()).expect_err("sin núcleos no se puede fijar ningún hilo");
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "una lista de núcleos vacía es InvalidInput, no un pánico");
    }

    #[test]
    fn permitidos_es_la_mascara_de_este_hilo() {
        let todos = mascara();
        assert_eq!(
            permitidos().unwrap(),
            todos,
            "permitidos() es la máscara de afinidad de este hilo (sched_getaffinity), no 0..N"
        );
        let ultimo = *todos.last().unwrap();
        let dentro = en_un_hilo(move || {
            restringe(&[ultimo]);
            permitidos().unwrap()
        });
        assert_eq!(dentro, vec![ultimo], "con solo el núcleo {ultimo} permitido, permitidos() debe decir eso");
    }

    #[test]
    fn fija_solo_este_hilo() {
        let antes = mascara();
        let ultimo = *antes.last().unwrap();
        let (m, cpu) = en_un_hilo(move || {
            fija(ultimo).expect("fijar a un núcleo permitido no debe fallar");
            // SAFETY: sin precondiciones.
            (mascara(), unsafe { libc::sched_getcpu() })
        });
        assert_eq!(m, vec![ultimo], "el hilo que llamó a fija({ultimo}) no quedó fijado a ese núcleo");
        assert_eq!(cpu, ultimo as i32, "un hilo fijado solo al núcleo {ultimo} corre en ese núcleo (sched_getcpu)");
        assert_eq!(mascara(), antes, "fija() cambió a otro hilo además del que llamó");
    }

    #[test]
    fn un_nucleo_imposible_es_invalid_input() {
        for nucleo in [100_000, usize::MAX] {
            let r = en_un_hilo(move || fija(nucleo));
            let e = r.expect_err("ese núcleo no existe: debe ser un error");
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "fija({nucleo})");
        }
        // Dentro de la máscara del sistema (menos de 1024), pero sin ese núcleo.
        let e = en_un_hilo(|| fija(1000)).expect_err("el núcleo 1000 no existe aquí");
        assert_eq!(
            e.kind(),
            io::ErrorKind::InvalidInput,
            "el núcleo 1000 cabe en la máscara pero no existe en esta máquina: fija(1000) es InvalidInput"
        );
    }

    #[test]
    fn lanza_fijados_reparte_por_turnos() {
        let todos = mascara();
        let antes = todos.clone();
        let n = 2 * todos.len() + 1;
        let hilos = lanza_fijados(n, |i, nucleo| (i, nucleo, mascara())).expect("lanza_fijados falló");
        assert_eq!(hilos.len(), n, "se pidieron {n} hilos: `lanza_fijados` debe devolver {n} JoinHandle");
        for (k, h) in hilos.into_iter().enumerate() {
            let (i, nucleo, m) = h.join().expect("un hilo entró en pánico").expect("un hilo no pudo fijarse");
            assert_eq!(i, k, "el hilo {k} recibió i = {i}");
            assert_eq!(
                nucleo,
                todos[k % todos.len()],
                "el hilo {k} debía ir al núcleo permitido número {k} % {}",
                todos.len()
            );
            assert_eq!(m, vec![nucleo], "el hilo {k} llamó a f sin estar fijado a su núcleo");
        }
        assert_eq!(mascara(), antes, "lanza_fijados cambió los núcleos del hilo que llama");
    }

    #[test]
    fn lanza_fijados_usa_los_permitidos_no_los_indices() {
        let ultimo = *mascara().last().unwrap();
        let vistos = en_un_hilo(move || {
            restringe(&[ultimo]);
            let hilos = lanza_fijados(3, |_, nucleo| (nucleo, mascara())).expect("lanza_fijados falló");
            hilos.into_iter().map(|h| h.join().unwrap().expect("un hilo no pudo fijarse")).collect::<Vec<_>>()
        });
        for (nucleo, m) in vistos {
            assert_eq!(nucleo, ultimo, "solo el núcleo {ultimo} estaba permitido");
            assert_eq!(
                m,
                vec![ultimo],
                "el hilo del núcleo {nucleo} tiene que estar fijado a él, y solo a él, cuando llama a f"
            );
        }
    }
}
