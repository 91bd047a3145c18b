//! Pruebas del capítulo 03. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/03-muchas-tareas`) y contra la solución
//! (`solutions/03-muchas-tareas`). Un módulo por ejercicio.
//!
//! Dos clases de pruebas: con un guion (`tokio_test::io::Builder`: «el
//! cliente manda esto, el servidor debe contestar esto otro»), en tiempo
//! simulado; y con conexiones de verdad por 127.0.0.1, en un puerto que
//! elige el sistema (el 0).

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
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
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
        assert_eq!(total.expect("atiende no debería fallar"), datos.len() as u64);
    }
}

mod acepta {
    use std::net::SocketAddr;

    use tokio::net::{TcpListener, TcpStream};
    use tokio::sync::oneshot;

    use muchas_tareas::acepta::sirve;

    use crate::apoyo::cede_hasta;

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

    #[tokio::test]
    async fn una_tarea_por_conexion() {
        let (escucha, direccion) = abre().await;
        let servidor = tokio::spawn(sirve(escucha, std::future::pending()));
        let mut clientes = Vec::new();
        for _ in 0..3 {
            clientes.push(TcpStream::connect(direccion).await.unwrap());
        }
        let n = saludados(&clientes).await;
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
}

mod lineas {
    use tokio_test::io::Builder;

    use muchas_tareas::lineas::{Respuesta, atiende_lineas, responde};

    use crate::apoyo::conversa;

    #[test]
    fn el_protocolo_ya_esta_escrito() {
        assert_eq!(responde("ECO hola"), Respuesta::Linea("hola".into()));
        assert_eq!(responde("MAYUS hola"), Respuesta::Linea("HOLA".into()));
        assert_eq!(responde("SUMA 1 2 3"), Respuesta::Linea("6".into()));
        assert_eq!(responde("ADIOS"), Respuesta::Adios);
        assert!(matches!(responde("BAILA"), Respuesta::Linea(r) if r.starts_with("ERROR")));
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
        assert_eq!(contestadas.expect("no debería fallar"), 1);
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
        assert_eq!(contestadas.expect("no debería fallar"), 4);
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
